"""metering: usage counters, quotas, rankings and monthly exports."""
