"""Developer scripts run from a checkout (make docs, make demo, make smoke, add_rule.py); not part of the package."""
