"""IoT telemetry service: device shadows, streams of readings, rollups, limits and retention."""
