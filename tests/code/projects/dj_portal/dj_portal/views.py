"""Article pages, trending lists and presence: Django's cache for pages, django-redis's connection for counters."""

from __future__ import annotations

import json
import time
from datetime import date

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django_redis import get_redis_connection

from .caching import fragment_key, is_online, mark_online, raw_client, remember, remember_briefly

VIEWS_TTL = 3 * 86400


def render_article(pk: int) -> str:
    return f"<article data-pk='{pk}'></article>"


def article(request: HttpRequest, pk: int) -> HttpResponse:
    key = f"page:article:{pk}"
    html = cache.get(key)
    if html is None:
        html = render_article(pk)
        cache.set(key, html, timeout=3)
    count_view(pk)
    if request.user.is_authenticated:
        mark_online(request.user.pk)
    return HttpResponse(html)


def article_sidebar(request: HttpRequest, pk: int) -> HttpResponse:
    html = remember(fragment_key("sidebar", pk), lambda: render_article(pk), timeout=600)
    return HttpResponse(html)


def live_score(request: HttpRequest, match_id: int) -> JsonResponse:
    data = remember_briefly(f"page:score:{match_id}", lambda: {"match": match_id, "at": time.time()})
    return JsonResponse(data)


def edit_article(request: HttpRequest, pk: int) -> HttpResponse:
    cache.delete(f"page:article:{pk}")
    cache.touch(f"page:etag:{pk}", 0)
    return HttpResponse(status=204)


def count_view(pk: int) -> None:
    con = get_redis_connection("default")
    key = f"article:views:{date.today():%Y%m%d}"
    pipe = con.pipeline(transaction=False)
    pipe.zincrby(key, 1, pk)
    pipe.expire(key, VIEWS_TTL)
    pipe.execute()


def count_view_all_time(pk: int) -> None:
    con = get_redis_connection("default")
    con.zincrby("article:views:total", 1, pk)  # error: TTL006


def count_hit(pk: int) -> int:
    con = get_redis_connection("default")
    return int(con.incr(f"article:hitCount:{pk}"))  # error: KEY007, TTL006


def trending(request: HttpRequest) -> JsonResponse:
    con = get_redis_connection("default")
    day = f"{date.today():%Y%m%d}"
    top = con.zrevrange(f"article:views:{day}", 0, 9, withscores=True)
    return JsonResponse({"top": [(pk.decode(), score) for pk, score in top]})


def all_time_ranking(request: HttpRequest) -> JsonResponse:
    con = get_redis_connection("default")
    ranked = con.zrevrange("article:views:total", 0, -1)  # error: CMD005
    return JsonResponse({"ranked": [pk.decode() for pk in ranked]})


def editors_pick(request: HttpRequest) -> JsonResponse:
    items = raw_client().lrange("feed:editorial", 0, -1)  # error: CMD005
    return JsonResponse({"items": [json.loads(item) for item in items]})


def editors_pick_head(request: HttpRequest) -> JsonResponse:
    items = raw_client().lrange("feed:editorial", 0, 19)
    return JsonResponse({"items": [json.loads(item) for item in items]})


def presence(request: HttpRequest, uid: int) -> JsonResponse:
    return JsonResponse({"online": is_online(uid), "pages": cache.get_many([f"page:article:{uid}"])})
