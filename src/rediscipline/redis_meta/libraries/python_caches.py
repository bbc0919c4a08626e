"""Key families of Python caches: Django's cache framework (RedisCache and django-redis alike), Flask-Caching,
aiocache, fastapi-cache2, dogpile.cache and django-cacheops.

Read from Django 5.2 (`django/core/cache/backends/base.py`, `django/utils/cache.py`, `django/core/cache/utils.py`,
`django/contrib/sessions/backends/cache.py`, `cached_db.py`), django-redis 7.0, Flask-Caching 2.5, aiocache 0.12,
fastapi-cache2 0.1.9 to 0.2.2, dogpile.cache 1.5 and django-cacheops 4.2 to 7.2, and checked by running each
against a real server. Django's default key function writes `<KEY_PREFIX>:<VERSION>:<key>`, which is
`:1:<key>` with the defaults (KEY_PREFIX empty, VERSION 1); django-redis uses the same function, so its keys
are the Django rows. The session backends append the session key to their prefix without a separator.
"""

from __future__ import annotations

from functools import partial

from rediscipline.redis_meta.libraries.schema import KeyFamily

_django = partial(KeyFamily, library="Django", ecosystem="python")
_flask_caching = partial(KeyFamily, library="Flask-Caching", ecosystem="python")
_aiocache = partial(KeyFamily, library="aiocache", ecosystem="python")
_fastapi_cache2 = partial(KeyFamily, library="fastapi-cache2", ecosystem="python")
_dogpile = partial(KeyFamily, library="dogpile.cache", ecosystem="python")
_cacheops = partial(KeyFamily, library="django-cacheops", ecosystem="python")

_DJANGO = "https://github.com/django/django/blob/main/django/"
_SESSION_ADVICE = (
    "Expires after `SESSION_COOKIE_AGE` (default 1,209,600 s, two weeks); run `clearsessions` for the database copies.",
    "在 `SESSION_COOKIE_AGE`（默认 1209600 秒，即两周）后过期；数据库中的副本用 `clearsessions` 清理。",
)

DJANGO: tuple[KeyFamily, ...] = (
    _django(
        id="django.page_cache",
        versions=">=1.11",
        shapes=(
            ":1:views.decorators.cache.cache_page.{rest}",
            ":{int}:views.decorators.cache.cache_page.{rest}",
            "{prefix}:{int}:views.decorators.cache.cache_page.{rest}",
        ),
        types=frozenset({"string"}),
        purpose=(
            "A whole response cached by `cache_page` or the cache middleware.",
            "由 `cache_page` 或缓存中间件缓存的完整响应。",
        ),
        persists=False,
        setting="CACHE_MIDDLEWARE_SECONDS",
        advice=(
            "Expires after the `cache_page` timeout or `CACHE_MIDDLEWARE_SECONDS` (default 600 s).",
            "在 `cache_page` 指定的超时或 `CACHE_MIDDLEWARE_SECONDS`（默认 600 秒）后过期。",
        ),
        examples=(
            ":1:views.decorators.cache.cache_page..GET.19292005e22feaf35688b4a0e7f6d8e3"
            ".d41d8cd98f00b204e9800998ecf8427e.en-us.Europe/Paris",
        ),
        docs=_DJANGO + "utils/cache.py",
        proves_prefix=True,
    ),
    _django(
        id="django.header_cache",
        versions=">=1.11",
        shapes=(
            ":1:views.decorators.cache.cache_header.{rest}",
            ":{int}:views.decorators.cache.cache_header.{rest}",
            "{prefix}:{int}:views.decorators.cache.cache_header.{rest}",
        ),
        types=frozenset({"string"}),
        purpose=("Which request headers a cached page varies on.", "缓存页面所依据的请求头列表。"),
        persists=False,
        setting="CACHE_MIDDLEWARE_SECONDS",
        advice=(
            "Expires after the `cache_page` timeout or `CACHE_MIDDLEWARE_SECONDS` (default 600 s).",
            "在 `cache_page` 指定的超时或 `CACHE_MIDDLEWARE_SECONDS`（默认 600 秒）后过期。",
        ),
        examples=(":1:views.decorators.cache.cache_header..d07d0d1f1c73e39039b10ed87244c3f9.en-us.Europe/Paris",),
        docs=_DJANGO + "utils/cache.py",
        proves_prefix=True,
    ),
    _django(
        id="django.template_fragment",
        versions=">=1.11",
        shapes=(":1:template.cache.{rest}", ":{int}:template.cache.{rest}", "{prefix}:{int}:template.cache.{rest}"),
        types=frozenset({"string"}),
        purpose=("A template fragment cached by `{% cache %}`.", "由 `{% cache %}` 缓存的模板片段。"),
        persists=False,
        setting="{% cache %} timeout",
        advice=(
            "Expires after the timeout given to the `{% cache %}` tag; `None` there keeps it forever.",
            "在 `{% cache %}` 标签指定的超时后过期；写成 `None` 则永久保留。",
        ),
        examples=(":1:template.cache.sidebar.cb1a83a77e6ae15e2b8311c9f901e7bf",),
        docs=_DJANGO + "core/cache/utils.py",
        proves_prefix=True,
    ),
    # The session key is glued to `cache` / `db`: inference reads `cache<key>` as one id, `cached_` + `db<key>`.
    _django(
        id="django.cached_db_session",
        versions=">=1.11",
        shapes=(
            ":1:django.contrib.sessions.cached_db{var}",
            ":{int}:django.contrib.sessions.cached_{token}",
            "{prefix}:{int}:django.contrib.sessions.cached_db{var}",
            "{prefix}:{int}:django.contrib.sessions.cached_{token}",
        ),
        types=frozenset({"string"}),
        purpose=("A session of the `cached_db` backend (cache copy).", "`cached_db` 会话后端的会话（缓存副本）。"),
        persists=False,
        setting="SESSION_COOKIE_AGE",
        advice=_SESSION_ADVICE,
        examples=(":1:django.contrib.sessions.cached_dbje4slazkfgx1o2lj4f1nz4dv0rhnycnc",),
        docs=_DJANGO + "contrib/sessions/backends/cached_db.py",
        proves_prefix=True,
    ),
    _django(
        id="django.cache_session",
        versions=">=1.11",
        shapes=(
            ":1:django.contrib.sessions.cache{var}",
            ":{int}:django.contrib.sessions.{token}",
            "{prefix}:{int}:django.contrib.sessions.cache{var}",
            "{prefix}:{int}:django.contrib.sessions.{token}",
        ),
        types=frozenset({"string"}),
        purpose=("A session of the `cache` session backend.", "`cache` 会话后端的会话。"),
        persists=False,
        setting="SESSION_COOKIE_AGE",
        advice=(
            "Expires after `SESSION_COOKIE_AGE` (default 1,209,600 s, two weeks).",
            "在 `SESSION_COOKIE_AGE`（默认 1209600 秒，即两周）后过期。",
        ),
        examples=(":1:django.contrib.sessions.cachehi1mlzmcmjf4fcs7xpgrqumpx48532gc",),
        docs=_DJANGO + "contrib/sessions/backends/cache.py",
        proves_prefix=True,
    ),
    _django(
        id="django.cache",
        versions=">=1.11",
        shapes=(":1:{rest}", ":{int}:{rest}"),
        types=frozenset({"string", "set", "hash"}),
        purpose=(
            "An entry of Django's cache (RedisCache or django-redis) under the application's key.",
            "Django 缓存（RedisCache 或 django-redis）中以应用自定键名存放的条目。",
        ),
        persists=False,
        setting="TIMEOUT",
        advice=(
            "Expires after the cache's `TIMEOUT` (default 300 s) unless a call passes its own; `TIMEOUT: None` or "
            "`timeout=None` keeps entries forever.",
            "在缓存配置的 `TIMEOUT`（默认 300 秒）后过期，除非调用时另行指定；"
            "`TIMEOUT: None` 或 `timeout=None` 会让条目永久保留。",
        ),
        examples=(":1:user:42", ":1:plain", ":2:user:42"),
        docs=_DJANGO + "core/cache/backends/base.py",
    ),
)

_FLASK = "https://github.com/pallets-eco/flask-caching/blob/master/src/flask_caching/__init__.py"
_FLASK_ADVICE = (
    "Expires after the decorator's `timeout` or `CACHE_DEFAULT_TIMEOUT` (default 300 s); 0 keeps entries forever.",
    "在装饰器的 `timeout` 或 `CACHE_DEFAULT_TIMEOUT`（默认 300 秒）后过期；设为 0 则永久保留。",
)

FLASK_CACHING: tuple[KeyFamily, ...] = (
    _flask_caching(
        id="flask-caching.view",
        versions=">=1.0",
        shapes=("flask_cache_view/{rest}", "{prefix}view//{rest}"),
        types=frozenset({"string"}),
        purpose=("A view response cached by `@cache.cached`.", "由 `@cache.cached` 缓存的视图响应。"),
        persists=False,
        setting="CACHE_DEFAULT_TIMEOUT",
        advice=_FLASK_ADVICE,
        examples=(
            "flask_cache_view//items/3",
            "flask_cache_view//q640adf8deb08fffa83a5f3c6f566950fd7ba81491db12f5ab4269f059df4055a",
        ),
        docs=_FLASK,
        proves_prefix=True,
    ),
    _flask_caching(
        id="flask-caching.memoize_version",
        versions=">=1.0",
        shapes=("flask_cache_{name}_memver", "{prefix}{name}_memver", "{rest}_memver"),
        types=frozenset({"string"}),
        purpose=(
            "The version of a memoized function; `delete_memoized` changes it.",
            "被 memoize 的函数的版本号；`delete_memoized` 会更换它。",
        ),
        persists=False,
        setting="CACHE_DEFAULT_TIMEOUT",
        advice=_FLASK_ADVICE,
        examples=("flask_cache___main__.compute_memver", "flask_cache_app.services.Svc.meth_memver"),
        docs=_FLASK,
        proves_prefix=True,
    ),
    _flask_caching(
        id="flask-caching.memoize",
        versions=">=1.0",
        shapes=("flask_cache_{token}",),
        types=frozenset({"string"}),
        purpose=("One result of a function cached by `@cache.memoize`.", "由 `@cache.memoize` 缓存的单次函数结果。"),
        persists=False,
        setting="CACHE_DEFAULT_TIMEOUT",
        advice=_FLASK_ADVICE,
        examples=("flask_cache_W6y2J3cOucVdYw4vFmT05O", "flask_cache_ar9z8jHUMB/Cx/PwFmT05O"),
        docs=_FLASK,
    ),
    _flask_caching(
        id="flask-caching.cache",
        versions=">=1.0",
        shapes=("flask_cache_{rest}",),
        types=frozenset({"string"}),
        purpose=(
            "An entry stored with `cache.set` under the application's key.",
            "通过 `cache.set` 以应用自定键名存放的条目。",
        ),
        persists=False,
        setting="CACHE_DEFAULT_TIMEOUT",
        advice=_FLASK_ADVICE,
        examples=("flask_cache_user:1",),
        docs=_FLASK,
    ),
)

OTHER_CACHES: tuple[KeyFamily, ...] = (
    _aiocache(
        id="aiocache.cached",
        versions=">=0.9",
        shapes=("{rest}()[]", "{rest}({rest})[]", "{rest}()[{rest}]", "{rest}({rest})[{rest}]"),
        types=frozenset({"string"}),
        purpose=(
            "A result cached by `@cached`: module, function, args and sorted kwargs.",
            "由 `@cached` 缓存的结果：键名为模块、函数名、位置参数和排序后的关键字参数。",
        ),
        persists=False,
        setting="ttl",
        advice=(
            "Give `@cached` (or the cache) a `ttl`: the default is none, so entries never expire.",
            "为 `@cached`（或缓存实例）设置 `ttl`：默认不设，条目永不过期。",
        ),
        examples=("__main__get_user(42,)[]", "__main__get_user(7,)[('full', True)]", "users:__main__nsf()[]"),
        docs="https://github.com/aio-libs/aiocache/blob/master/aiocache/decorators.py",
    ),
    _fastapi_cache2(
        id="fastapi-cache2.response",
        versions=">=0.1",
        # `{name}::{hex}`: under the `prefix` given to FastAPICache.init, with no namespace (a response digest
        # is never a Spring Cache key, whose shape is otherwise the same)
        shapes=("::{hex}", ":{name}:{hex}", "fastapi-cache::{hex}", "fastapi-cache:{name}:{hex}", "{name}::{hex}"),
        types=frozenset({"string"}),
        purpose=(
            "A response cached by `@cache`, under the MD5 of the function and its arguments.",
            "由 `@cache` 缓存的响应，键名含函数及其参数的 MD5。",
        ),
        persists=False,
        setting="expire",
        advice=(
            "Pass `expire` to `FastAPICache.init` or `@cache`: the default is none, so entries never expire.",
            "在 `FastAPICache.init` 或 `@cache` 中设置 `expire`：默认不设，条目永不过期。",
        ),
        examples=(
            "::103ecf0ce7c330591fda823c4e1f8869",
            ":users:c71e94d7071dd7fff0a6a8091e8a1e9d",
            "fastapi-cache::103ecf0ce7c330591fda823c4e1f8869",
        ),
        docs="https://github.com/long2ice/fastapi-cache/blob/main/fastapi_cache/key_builder.py",
    ),
    _dogpile(
        id="dogpile-cache.lock",
        versions=">=0.6",
        shapes=("_lock{name}:{name}|{rest}", "_lock{name}:{name}|"),
        types=frozenset({"string"}),
        purpose=("The distributed lock that regenerates one cached value.", "重新生成某个缓存值时使用的分布式锁。"),
        persists=False,
        setting="lock_timeout",
        advice=(
            "Pass `lock_timeout` in the backend arguments (default none: a crashed holder keeps the lock).",
            "在后端参数中设置 `lock_timeout`（默认不设：持有者崩溃后锁会一直存在）。",
        ),
        examples=("_lockapp.users:get_user|42",),
        docs="https://github.com/sqlalchemy/dogpile.cache/blob/main/dogpile/cache/backends/redis.py",
    ),
    _dogpile(
        id="dogpile-cache.entry",
        versions=">=0.6",
        shapes=("{name}:{name}|{rest}", "{name}:{name}|"),
        types=frozenset({"string"}),
        purpose=(
            "A value cached by `cache_on_arguments`: module:function|namespace|args.",
            "由 `cache_on_arguments` 缓存的值：键名为 模块:函数|命名空间|参数。",
        ),
        persists=False,
        setting="redis_expiration_time",
        advice=(
            "Pass `redis_expiration_time` in the backend arguments: `expiration_time` alone sets no Redis TTL "
            "(default none).",
            "在后端参数中设置 `redis_expiration_time`：仅设 `expiration_time` 不会给 Redis 键加过期时间（默认不设）。",
        ),
        examples=("__main__:get_user|42 a", "app.users:get_user|7 b", "__main__:noargs|v2|"),
        docs="https://github.com/sqlalchemy/dogpile.cache/blob/main/dogpile/cache/util.py",
    ),
)

_CACHEOPS = "https://github.com/Suor/django-cacheops/blob/master/cacheops/"
_CACHEOPS_ADVICE = (
    "Expires after the `timeout` of the model's CACHEOPS entry (or CACHEOPS_DEFAULTS); invalidation deletes it "
    "earlier.",
    "在该模型 CACHEOPS 配置（或 CACHEOPS_DEFAULTS）中的 `timeout` 后过期；失效机制会提前删除它。",
)

CACHEOPS: tuple[KeyFamily, ...] = (
    _cacheops(
        id="django-cacheops.queryset",
        versions=">=4.0",
        shapes=("q:{hex}", "q:{hex}:signal"),
        types=frozenset({"string", "list"}),
        purpose=("A cached queryset result, and its lock signal.", "缓存的查询集结果及其锁信号。"),
        persists=False,
        setting="CACHEOPS",
        advice=_CACHEOPS_ADVICE,
        examples=("q:07e40b4568ceeabeb205e41c1d012d6f",),
        docs=_CACHEOPS + "query.py",
        type_required=True,
    ),
    _cacheops(
        id="django-cacheops.function",
        versions=">=4.0",
        shapes=("c:{hex}", "as:{hex}", "asp:{hex}", "c:{hex}:signal", "as:{hex}:signal"),
        types=frozenset({"string", "list"}),
        purpose=(
            "A result cached by `@cached`, `@cached_as` or `@cached_view_as`.",
            "由 `@cached`、`@cached_as` 或 `@cached_view_as` 缓存的结果。",
        ),
        persists=False,
        setting="timeout",
        advice=(
            "Expires after the decorator's `timeout` (default the CACHEOPS_DEFAULTS timeout).",
            "在装饰器的 `timeout`（默认取 CACHEOPS_DEFAULTS 中的 timeout）后过期。",
        ),
        examples=("c:4ff180ac6335522bb01f5f390f60f9b0", "as:07185668f3f1231c6ed005beeaf3309a"),
        docs=_CACHEOPS + "simple.py",
        type_required=True,
    ),
    _cacheops(
        id="django-cacheops.conj",
        versions=">=4.0",
        shapes=("conj:{name}:{rest}", "conj:{name}:", "{prefix}conj:{name}:{rest}"),  # under CACHEOPS_PREFIX
        types=frozenset({"set"}),
        purpose=(
            "The cache keys to invalidate when rows matching a condition change.",
            "当满足某条件的行变化时需要失效的缓存键。",
        ),
        persists=False,
        setting="CACHEOPS",
        advice=(
            "Expires a little after twice the longest timeout of the keys it lists.",
            "在所列缓存键最长超时时间的两倍之后不久过期。",
        ),
        examples=("conj:auth_user:id=1", "conj:auth_user:"),
        docs=_CACHEOPS + "getset.py",
        proves_prefix=True,
    ),
    _cacheops(
        id="django-cacheops.schemes",
        versions=">=4.0",
        shapes=("schemes:{name}",),
        types=frozenset({"set"}),
        purpose=("The condition schemes used for a table's invalidation.", "某张表失效时使用的条件模式。"),
        persists=True,
        setting="",
        advice=(
            "Kept on purpose; small and bounded by the queries the code makes.",
            "有意长期保留；规模小，受代码中查询种类的限制。",
        ),
        examples=("schemes:auth_user",),
        docs=_CACHEOPS + "lua/cache_thing.lua",
    ),
)
