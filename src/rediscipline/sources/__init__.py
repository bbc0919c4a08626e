"""Sources produce facts; they never import rules, the engine or renderers."""
