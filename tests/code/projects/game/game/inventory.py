"""Wallets and inventories: buying an item moves coins and items atomically with one Lua script."""

from __future__ import annotations

from .cluster import rc

BUY = """
local coins = tonumber(redis.call('get', KEYS[1]) or '0')
if coins < tonumber(ARGV[2]) then return 0 end
redis.call('decrby', KEYS[1], ARGV[2])
redis.call('hincrby', KEYS[2], ARGV[1], 1)
return 1
"""

buy_script = rc.register_script(BUY)


def wallet_key(player_id: int) -> str:
    return f"wallet:{{{player_id}}}:coins"


def inventory_key(player_id: int) -> str:
    return f"inventory:{{{player_id}}}:items"


def buy(player_id: int, item_id: str, price: int) -> bool:
    return bool(buy_script(keys=[wallet_key(player_id), inventory_key(player_id)], args=[item_id, price]))


def credit(player_id: int, coins: int) -> int:
    return int(rc.incrby(wallet_key(player_id), coins))


def balance(player_id: int) -> int:
    return int(rc.get(wallet_key(player_id)) or 0)


def item_count(player_id: int, item_id: str) -> int:
    return int(rc.hget(inventory_key(player_id), item_id) or 0)


def legacy_item_count(player_id: int, item_id: str) -> int:
    return int(rc.hget(f"inventory:{player_id}:items", item_id) or 0)  # error: KEY012


def gift(player_id: int, item_id: str) -> None:
    rc.hincrby(f"player:gifts:{{{player_id}", item_id, 1)  # error: KEY011


def transfer_legacy(player_id: int, item_id: str, price: int) -> None:
    rc.eval(BUY, 2, wallet_key(player_id), inventory_key(player_id), item_id, price)  # error: CMD009


def inventory_page(player_id: int, cursor: int = 0) -> tuple[int, dict[bytes, bytes]]:
    return rc.hscan(inventory_key(player_id), cursor, count=100)


def whole_inventory(player_id: int) -> dict[bytes, bytes]:
    return dict(rc.hscan_iter(inventory_key(player_id)))  # error: CMD010
