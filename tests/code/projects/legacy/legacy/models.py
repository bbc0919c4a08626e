# -*- coding: utf-8 -*-
# ruff: noqa: UP004, UP009, UP031 -- Python 2 era code, ported line by line
"""Models.  Keys are built with %-formatting, as they always were."""

import json
import random
import time

from legacy.db import get_cache, get_conn

USER_KEY = "legacy:user:%s"
TOKEN_KEY = "legacy:token:%s"
SESSION_KEY = "legacy:session:%s"
ACTIONS_KEY = "legacy:actions:%s"
LEADERBOARD_KEY = "legacy:leaderboard"
GROUP_MEMBERS_KEY = "legacy:group:%s:members"
USER_TTL = 86400
TOKEN_TTL = 3600


class User(object):
    def __init__(self, uid):
        self.uid = uid

    def save(self, data):
        r = get_conn()
        r.hmset(USER_KEY % self.uid, data)  # error: TTL006

    def save_for_a_day(self, data):
        r = get_conn()
        r.hmset(USER_KEY % self.uid, data)
        r.expire(USER_KEY % self.uid, USER_TTL + random.randint(0, 3600))

    def load(self):
        return get_conn().hgetall(USER_KEY % self.uid)  # error: CMD005

    def load_name(self):
        return get_conn().hget(USER_KEY % self.uid, "name")

    def save_info(self, info):
        key = "legacy:userInfo:%s" % self.uid
        get_conn().set(key, json.dumps(info), ex=USER_TTL + random.randint(0, 600))  # error: KEY007

    def cache_token(self, token):
        # redis-py 2.x `Redis.setex(name, value, time)` order: value first
        get_conn().setex(TOKEN_KEY % self.uid, token, TOKEN_TTL)

    def remember_login(self):
        r = get_conn()
        r.set("legacy:last_login:%s" % self.uid, int(time.time()))  # error: TTL008
        r.expire("legacy:last_login:%s" % self.uid, USER_TTL)


def warm_tokens(tokens):
    r = get_conn()
    for uid, token in tokens.items():
        r.setex(TOKEN_KEY % uid, TOKEN_TTL, token)  # error: TTL007


def warm_tokens_v1(tokens):
    """Still called by the v1 importer.  Written for redis-py 2.x's `Redis.setex(name, value, time)`: with
    redis-py 3+ the token lands in the TTL position (and the server rejects it), which is a bug, but no TTL
    here is a constant."""
    r = get_conn()
    for uid, token in tokens.items():
        r.setex(TOKEN_KEY % uid, token, TOKEN_TTL)


def warm_sessions(sessions):
    r = get_conn()
    for sid, blob in sessions.items():
        r.setex(SESSION_KEY % sid, 1800 + random.randint(0, 180), blob)


def recent_actions(uid):
    return get_conn().lrange(ACTIONS_KEY % uid, 0, -1)  # error: CMD005


def last_actions(uid, n=20):
    return get_conn().lrange(ACTIONS_KEY % uid, 0, n - 1)


def log_action(uid, action):
    key = ACTIONS_KEY % uid
    pipe = get_conn().pipeline()
    pipe.lpush(key, "%s|%s" % (int(time.time()), action))
    pipe.ltrim(key, 0, 99)
    pipe.expire(key, 30 * 86400)  # one key on a pipeline, no loop: not a bulk write
    pipe.execute()


def top_scores():
    return get_conn().zrevrange(LEADERBOARD_KEY, 0, -1, withscores=True)  # error: CMD005


def top_ten():
    return get_conn().zrevrange(LEADERBOARD_KEY, 0, 9, withscores=True)


def add_score(uid, points):
    get_conn().zincrby(LEADERBOARD_KEY, points, uid)  # error: TTL006


def group_members_sorted(gid):
    return get_conn().sort(GROUP_MEMBERS_KEY % gid, alpha=True)  # error: CMD005


def is_member(gid, uid):
    return get_conn().sismember(GROUP_MEMBERS_KEY % gid, uid)


def page_views(page, day):
    return get_cache().get("legacy:pv:%s-%s" % (page, day))  # error: KEY010


def count_page_view(page):
    r = get_cache()
    key = "legacy:page-views:%s" % page
    r.incr(key)  # error: KEY010
    r.expire(key, 7 * 86400)  # error: KEY010


def daily_stats(day):
    return get_cache().get("legacy:Stats:%s" % day)  # error: KEY006
