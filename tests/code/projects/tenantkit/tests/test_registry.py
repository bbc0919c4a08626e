"""The registry and the flags, with TenantRedis mocked out."""

from __future__ import annotations

from unittest import mock
from unittest.mock import MagicMock

from tenantkit import registry as registry_module
from tenantkit.client import TenantRedis
from tenantkit.registry import Registry, Tenant, feature_flags, set_plan


def test_registry_is_a_dict_of_tenants() -> None:
    reg = Registry()
    acme = reg.get("acme")
    assert reg.get("acme") is acme
    assert reg.keys() == ["acme"]
    with mock.patch.object(Tenant, "connection", MagicMock(spec=TenantRedis)):
        reg.delete("acme")
    assert reg.keys() == []


def test_flags_and_plan_with_a_mocked_client() -> None:
    fake = MagicMock(spec=TenantRedis)
    fake.tkey.side_effect = lambda *parts: ":".join(("acme", *map(str, parts)))
    fake.hgetall.return_value = {b"beta": b"1"}
    with mock.patch("tenantkit.registry.get_client", return_value=fake):
        tenant = Tenant("acme")
        assert feature_flags(tenant) == {b"beta": b"1"}
        set_plan(tenant, "pro")
        fake.set.assert_called_once_with("acme:plan", "pro")
        fake.hgetall.assert_called_once_with("acme:flags")


def test_module_registry_is_shared() -> None:
    assert isinstance(registry_module.registry, Registry)
    registry_module.registry.get("demo")
    assert registry_module.registry.keys() == ["demo"]
    with mock.patch.object(Tenant, "connection", MagicMock(spec=TenantRedis)) as connection:
        registry_module.registry.delete("demo")
        connection.purge_tenant_gently.assert_called_once_with()
