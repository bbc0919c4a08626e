"""tenantkit: one Redis keyspace shared by tenants, each under its own slug."""
