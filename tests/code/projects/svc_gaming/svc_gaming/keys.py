"""Key builders of the game backend (see rediscipline.toml for the declared schema)."""

from __future__ import annotations


def queue_key(region: str, mode: str) -> str:
    return f"matchmaking:queue:{region}:{mode}"


def ticket_key(player_id: str) -> str:
    return f"matchmaking:ticket:{player_id}"


def lobby_key(lobby_id: str) -> str:
    return f"lobby:state:{lobby_id}"


def presence_key(player_id: str) -> str:
    return f"presence:player:{player_id}"


def presence_channel(player_id: str) -> str:
    """A pub/sub channel, not a key: friends subscribe to it for status changes."""
    return f"presence:events:{player_id}"


def friends_key(player_id: str) -> str:
    return f"social:friends:{player_id}"


def invites_key(player_id: str) -> str:
    return f"social:invites:{player_id}"


def season_board(season: str) -> str:
    return f"leaderboard:{{{season}}}:global"


def rate_key(action: str, player_id: str, bucket: int) -> str:
    return f"anticheat:rate:{action}:{player_id}:{bucket}"


def strikes_key(player_id: str) -> str:
    return f"anticheat:strikes:{player_id}"
