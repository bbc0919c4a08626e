"""Pure data: facts, key names and templates, severities, findings and the report.

Nothing in this package imports anything else from rediscipline, so every other layer can depend on it.
"""
