"""Small applications the guard is tested on: each seeded break is marked `# seeded: RULE[, RULE]` on the line
of the call that breaks it; calls without a mark follow the conventions."""
