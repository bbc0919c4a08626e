"""Game backend: matchmaking, lobbies, presence, leaderboards, daily quests and anti-cheat limits."""
