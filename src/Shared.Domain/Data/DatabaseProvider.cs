namespace ProtocolBench.Shared.Domain.Data;

public enum DatabaseProvider
{
    Sqlite,
    PostgreSQL,
}
