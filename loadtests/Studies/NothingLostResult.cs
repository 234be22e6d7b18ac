using Microsoft.EntityFrameworkCore;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// After a create run, the database itself (not the API under test) must hold exactly the acknowledged authors:
/// every acknowledged marker stored once with the id the service returned, no duplicate, nothing refused stored,
/// nothing stored that was never sent; requests with an unknown fate (timed out, cancelled) may or may not be there.
/// </summary>
public sealed record NothingLostResult(
    string Database,
    string Prefix,
    int Sent,
    int Acknowledged,
    int Refused,
    int Unknown,
    int Stored,
    int Lost,
    int Duplicated,
    int WrongId,
    int RefusedButStored,
    int NeverSent,
    int UnknownStored,
    IReadOnlyList<string> Examples,
    string? Error = null,
    bool Skipped = false)
{
    public bool Passed => Error is null && Lost == 0 && Duplicated == 0 && WrongId == 0 && RefusedButStored == 0 && NeverSent == 0;

    /// <summary>Checked and wrong, or the database could not be read. Not: nobody said which database it is (--external).</summary>
    public bool Failed => !Passed && !Skipped;

    public string Verdict => Error is not null
        ? $"not checked: {Error}"
        : Passed
            ? $"nothing lost: {Stored} stored = {Acknowledged} acknowledged" + (Unknown > 0 ? $" + {UnknownStored} of {Unknown} unknown" : "") + ", 0 duplicated"
            : $"FAILED: lost {Lost}, duplicated {Duplicated}, wrong id {WrongId}, refused but stored {RefusedButStored}, never sent {NeverSent}";

    public static async Task<NothingLostResult> CheckAsync(DatabaseOptions? database, CreateLedger ledger, CancellationToken cancellationToken)
    {
        var acknowledged = ledger.Acknowledged.ToDictionary(e => e.Key, e => e.Value);
        var refused = ledger.Refused.ToHashSet();
        var unknown = ledger.Unknown.ToHashSet();
        if (database is null)
        {
            return Empty("unknown", "the services' database is not known; pass --database and --connection-string with --external", skipped: true);
        }

        List<(int Id, string Name)> rows;
        try
        {
            await using var db = new LibraryDbContext(database.ContextOptions());
            rows = (await db.Authors.Where(a => a.Name.StartsWith(ledger.Prefix)).Select(a => new { a.Id, a.Name }).ToListAsync(cancellationToken))
                .Select(a => (a.Id, a.Name)).ToList();
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            return Empty(database.Describe(), $"{e.GetType().Name}: {e.Message}");
        }

        var stored = rows.GroupBy(r => r.Name).ToDictionary(g => g.Key, g => g.Select(r => r.Id).ToList());
        var examples = new List<string>();
        void Example(string text)
        {
            if (examples.Count < 20)
            {
                examples.Add(text);
            }
        }

        int lost = 0, wrongId = 0;
        foreach (var (marker, id) in acknowledged)
        {
            if (!stored.TryGetValue(marker, out var ids))
            {
                lost++;
                Example($"lost: {marker} (acknowledged as id {id})");
            }
            else if (!ids.Contains(id))
            {
                wrongId++;
                Example($"wrong id: {marker} acknowledged as {id}, stored as {string.Join('/', ids)}");
            }
        }

        var duplicated = stored.Count(s => s.Value.Count > 1);
        foreach (var (marker, ids) in stored.Where(s => s.Value.Count > 1))
        {
            Example($"duplicated: {marker} × {ids.Count}");
        }

        var refusedButStored = refused.Count(stored.ContainsKey);
        var neverSent = stored.Keys.Count(k => !acknowledged.ContainsKey(k) && !refused.Contains(k) && !unknown.Contains(k));
        foreach (var marker in stored.Keys.Where(k => refused.Contains(k) || (!acknowledged.ContainsKey(k) && !unknown.Contains(k))))
        {
            Example($"stored but {(refused.Contains(marker) ? "refused" : "never sent")}: {marker}");
        }

        return new NothingLostResult(
            database.Describe(), ledger.Prefix, ledger.Count, acknowledged.Count, refused.Count, unknown.Count, rows.Count,
            lost, duplicated, wrongId, refusedButStored, neverSent, unknown.Count(stored.ContainsKey), examples);

        NothingLostResult Empty(string where, string error, bool skipped = false) => new(
            where, ledger.Prefix, ledger.Count, acknowledged.Count, refused.Count, unknown.Count, 0, 0, 0, 0, 0, 0, 0, [], error, skipped);
    }
}
