using System.Data.Common;

namespace ProtocolBench.Shared.Hosting;

/// <summary>The one mapping of every service from what went wrong to what its client is told (each protocol then says it in its own terms).</summary>
public static class ErrorMapping
{
    /// <summary>
    /// Turns any exception into the error clients see: domain errors as they are, database faults as UNAVAILABLE,
    /// anything else as null (an internal error, reported without details). The whole chain is searched: EF Core and
    /// the providers wrap the database's own exception (DbUpdateException, InvalidOperationException, NpgsqlException
    /// around a TimeoutException or an IOException), and every failure of the database, on a read or a write, a
    /// terminated backend, a lock or busy timeout, a file gone or read-only, is the same UNAVAILABLE.
    /// </summary>
    public static DomainException? ToClientError(this Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            switch (e)
            {
                case DomainException domain:
                    return domain;
                case DbException or TimeoutException:
                    return DatabaseUnavailable();
            }
        }

        return null;
    }

    private static DomainException DatabaseUnavailable() =>
        new(ErrorCode.Unavailable, "database", "The database is not available right now; try again later.");
}
