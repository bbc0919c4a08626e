"""The tenant registry: a Tenant object carries its client, handed from module to module."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .client import TenantRedis, get_client


@dataclass
class Tenant:
    slug: str
    plan: str = "free"
    features: set[str] = field(default_factory=set)

    @cached_property
    def connection(self) -> TenantRedis:
        return get_client(self.slug)


class Registry:
    def __init__(self) -> None:
        self._tenants: dict[str, Tenant] = {}

    def get(self, slug: str) -> Tenant:
        tenant = self._tenants.get(slug)
        if tenant is None:
            tenant = self._tenants[slug] = Tenant(slug)
        return tenant

    def keys(self) -> list[str]:
        return sorted(self._tenants.keys())

    def delete(self, slug: str) -> None:
        tenant = self._tenants.pop(slug, None)
        if tenant is not None:
            tenant.connection.purge_tenant_gently()


registry = Registry()


def feature_flags(tenant: Tenant) -> dict[bytes, bytes]:
    return tenant.connection.hgetall(tenant.connection.tkey("flags"))  # error: CMD005


def set_plan(tenant: Tenant, plan: str) -> None:
    tenant.plan = plan
    tenant.connection.set(tenant.connection.tkey("plan"), plan)  # error: TTL006


def tenant_keys(slug: str) -> list[bytes]:
    return registry.get(slug).connection.keys(f"{slug}:*")  # error: CMD001
