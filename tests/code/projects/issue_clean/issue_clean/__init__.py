"""A ticketing service that keeps to the team's Redis conventions, with a few slips left in for review."""
