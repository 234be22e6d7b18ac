namespace ProtocolBench.Shared.Domain.Data;

/// <summary>What initialization found and did, and where its time went: opening (the lock, the file or database, a connection), the check, the schema and the rows.</summary>
public sealed record InitializationResult(bool Seeded, int Authors, int Books, TimeSpan Open, TimeSpan Check, TimeSpan Schema, TimeSpan Rows)
{
    public TimeSpan Elapsed => Open + Check + Schema + Rows;
}
