# -*- coding: utf-8 -*-
# ruff: noqa: UP009, UP031 -- Python 2 era code, ported line by line
"""Staff-only admin views (mounted under /admin/ by the old URL dispatcher)."""

import sqlite3

from legacy.db import get_conn

PORTAL_DB = "/var/lib/portal/portal.sqlite3"


def render(template, context):
    return "%s: %r" % (template, sorted(context))


def list_sessions(request):
    r = get_conn()
    keys = r.keys("legacy:session:*")  # error: CMD001
    return render("admin/sessions.html", {"keys": sorted(keys), "count": len(keys)})


def list_sessions_paged(request):
    r = get_conn()
    cursor, keys = r.scan(cursor=int(request.get("cursor", 0)), match="legacy:session:*", count=500)
    return render("admin/sessions.html", {"keys": keys, "next": cursor})


def clear_cache(request):
    r = get_conn()
    r.delete(*r.keys("legacy:cache:*"))  # error: CMD001
    return render("admin/done.html", {})


def clear_cache_progressively(request):
    r = get_conn()
    for key in r.scan_iter(match="legacy:cache:*", count=1000):
        r.unlink(key)
    return render("admin/done.html", {})


def reset_leaderboard(request):
    get_conn().delete("legacy:leaderboard")  # error: CMD008
    return render("admin/done.html", {})


def archive_group(request, gid):
    get_conn().unlink("legacy:group:%s:members" % gid)
    return render("admin/done.html", {"gid": gid})


def reports_db(request):
    r = get_conn()
    r.execute_command("SELECT", 2)  # error: CMD006
    return render("admin/reports.html", {"size": r.dbsize()})


def server_info(request):
    info = get_conn().info()
    return render(
        "admin/info.html", {"memory": info.get("used_memory_human"), "clients": info.get("connected_clients")}
    )


def inspect_key(request, key):
    return render("admin/key.html", {"debug": get_conn().debug_object(key)})  # error: CMD004


def key_size(request, key):
    return render("admin/key.html", {"bytes": get_conn().memory_usage(key, samples=5)})


def set_policy(request):
    get_conn().config_set("maxmemory-policy", request.get("policy", "allkeys-lru"))  # error: CMD004
    return render("admin/done.html", {})


def wipe_everything(request):
    if request.get("confirm") == "yes":
        get_conn().flushall()  # error: CMD002
    return render("admin/done.html", {})


def users_table(request):
    """The user list comes from SQLite; `keys()` here is sqlite3.Row's."""
    conn = sqlite3.connect(PORTAL_DB)
    conn.row_factory = sqlite3.Row
    cursor = conn.cursor()
    cursor.execute("SELECT id, name, email FROM users ORDER BY id LIMIT 100")
    rows = cursor.fetchall()
    columns = rows[0].keys() if rows else []
    return render("admin/users.html", {"columns": columns, "rows": [tuple(row) for row in rows]})
