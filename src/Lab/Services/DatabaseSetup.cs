namespace ProtocolBench.Lab.Services;

/// <summary>How a report's setup names the services' database.</summary>
public static class DatabaseSetup
{
    /// <summary>
    /// The database as a report's setup names it, with where its queries run: SQLite inside each service (its CPU is in
    /// the server cost), PostgreSQL in a server of its own that this run does not pin or meter. Null when not known.
    /// </summary>
    public static string? Of(DatabaseOptions? database) => database switch
    {
        null => null,
        { Provider: DatabaseProvider.Sqlite } d => $"{d.Describe()}, inside each service's process: the queries' CPU is part of the server cost",
        var d => $"{d.Describe()}: a server of its own, not pinned (its processes may run on either core) and not metered: " +
                 "the server cost is the service's alone, without the queries' CPU in PostgreSQL (the same queries for every protocol)",
    };
}
