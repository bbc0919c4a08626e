"""Matchmaking: players wait in a sorted set per region and mode, scored by rating; a matcher tick pairs
them, creates a lobby hash and pushes its id onto each player's ticket list."""

from __future__ import annotations

import json
import random
import time
import uuid
from dataclasses import dataclass

import redis

from svc_gaming import keys
from svc_gaming.infra import make_redis
from svc_gaming.settings import settings

MODES = ("casual", "ranked", "arena")
QUEUE_TTL = 15 * 60
TICKET_TTL = 120
LOBBY_TTL = 30 * 60
RESULT_TTL = 7 * 86400
TEAM_SIZE = 5


@dataclass(frozen=True)
class Ticket:
    player_id: str
    mode: str
    rating: int


def pair_by_rating(waiting: list[tuple[bytes, float]], size: int) -> list[list[tuple[bytes, float]]]:
    ordered = sorted(waiting, key=lambda item: item[1])
    return [ordered[i : i + size] for i in range(0, len(ordered) - size + 1, size)]


class Matchmaker:
    def __init__(self, redis: redis.Redis, region: str) -> None:
        self.redis = redis
        self.region = region

    def enqueue(self, ticket: Ticket) -> None:
        key = keys.queue_key(self.region, ticket.mode)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {ticket.player_id: ticket.rating})
        pipe.expire(key, QUEUE_TTL)
        pipe.execute()

    def leave(self, ticket: Ticket) -> None:
        self.redis.zrem(keys.queue_key(self.region, ticket.mode), ticket.player_id)

    def wait_for_match(self, player_id: str) -> str | None:
        """Blocks the websocket handler's worker thread until the matcher pushes a lobby id."""
        popped = self.redis.blpop([keys.ticket_key(player_id)], timeout=0)  # error: PUB001
        return popped[1].decode() if popped else None

    def tick(self, mode: str) -> int:
        """Run every second by the matcher process for each mode."""
        key = keys.queue_key(self.region, mode)
        waiting = self.redis.zrange(key, 0, -1, withscores=True)  # error: CMD005
        matches = pair_by_rating(waiting, TEAM_SIZE)
        for match in matches:
            players = [member.decode() for member, _ in match]
            self.redis.zrem(key, *players)
            lobby_id = self.create_lobby(mode, players)
            pipe = self.redis.pipeline(transaction=False)
            for player_id in players:
                ticket = keys.ticket_key(player_id)
                pipe.rpush(ticket, lobby_id)
                pipe.expire(ticket, TICKET_TTL + random.randint(0, 30))
            pipe.execute()
        return len(matches)

    def queue_depths(self) -> dict[str, int]:
        """For the ops dashboard, which still reads the depth keys of the old naming."""
        # a `.` between two values joins the parts of one value, like a host name (KEY010 doc)
        return {mode: self.redis.zcard(f"matchmaking:queue:{self.region}.{mode}") for mode in MODES}

    # ---- lobbies -------------------------------------------------------------------------------------

    def create_lobby(self, mode: str, players: list[str]) -> str:
        lobby_id = uuid.uuid4().hex
        key = keys.lobby_key(lobby_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(key, mapping={"mode": mode, "players": ",".join(players), "ready": 0, "at": int(time.time())})
        pipe.expire(key, LOBBY_TTL)
        pipe.execute()
        return lobby_id

    def lobby(self, lobby_id: str) -> dict[bytes, bytes]:
        return self.redis.hgetall(keys.lobby_key(lobby_id))  # error: CMD005

    def ready_up(self, lobby_id: str, player_id: str) -> bool:
        """Optimistic locking: WATCH the lobby, retry when another player readied at the same moment."""
        key = keys.lobby_key(lobby_id)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    ready = int(pipe.hget(key, "ready") or 0) + 1
                    pipe.multi()  # error: CMD007
                    pipe.hset(key, mapping={"ready": ready, f"ready_{player_id}": 1})
                    pipe.expire(key, LOBBY_TTL)
                    pipe.execute()
                    return ready == TEAM_SIZE
                except redis.WatchError:
                    continue

    def disband(self, lobby_id: str) -> None:
        self.redis.delete(keys.lobby_key(lobby_id))  # error: CMD008

    def record_result(self, match_id: str, result: dict[str, object]) -> None:
        self.redis.set(f"match:result:{match_id}", json.dumps(result), ex=RESULT_TTL)  # error: KEY018


matchmaker = Matchmaker(make_redis(), settings.REGION)
