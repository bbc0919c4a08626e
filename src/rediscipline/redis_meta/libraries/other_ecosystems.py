"""Key families of libraries outside Python that share Redis with Python services, in attribution order.

The rows live by ecosystem in `ruby`, `node` and `jvm_php`; this tuple orders them so that the narrow shapes
come first and Spring Cache's `{name}::{rest}` (which also matches Sidekiq's `h|Foo::BarJob-...`) comes last.
"""

from __future__ import annotations

from rediscipline.redis_meta.libraries.jvm_php import JVM_PHP_FAMILIES
from rediscipline.redis_meta.libraries.node import BULL_FAMILIES
from rediscipline.redis_meta.libraries.ruby import RUBY_FAMILIES
from rediscipline.redis_meta.libraries.schema import KeyFamily

#: Every family of the other ecosystems; append it after the Python rows (its last row claims `{name}::{rest}`).
OTHER_ECOSYSTEMS: tuple[KeyFamily, ...] = RUBY_FAMILIES + BULL_FAMILIES + JVM_PHP_FAMILIES
