namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// How both commands name and remove the authors their creates write: every name starts with the run's prefix,
/// pb-{command}-{run}-, so a run finds what it wrote (the load study's nothing-lost check) and deletes it by that prefix,
/// and a later run of the same command finds what an interrupted one left. No name contains "Author - ", so the
/// searches of the seeded authors never see them.
/// </summary>
/// <param name="RunId"><see cref="Runs.RunDescription.Id"/>.</param>
public sealed record CreatedAuthors(string Command, string RunId)
{
    /// <summary>What every run of <paramref name="command"/> writes at the start of a name.</summary>
    public static string CommandPrefix(string command) => $"pb-{command}-";

    /// <summary>What every author this run creates is named with first.</summary>
    public string Prefix => $"{CommandPrefix(Command)}{RunId}-";

    /// <summary>A name of this run: its prefix and what the caller adds (a cell, a user and a count).</summary>
    public string Name(string suffix) => Prefix + suffix;

    /// <summary>
    /// Deletes every author whose name starts with <paramref name="prefix"/> (and their books): in one statement when the
    /// operations run in process on the database, otherwise found by a search and deleted one by one, four at a time,
    /// through the protocol's client (services started elsewhere). Returns how many were deleted.
    /// </summary>
    public static async Task<int> DeleteAsync(ILibraryOperations operations, string prefix, CancellationToken cancellationToken = default)
    {
        if (operations is InProcessOperations domain)
        {
            return await domain.DeleteAuthorsNamedAsync(prefix, cancellationToken).ConfigureAwait(false);
        }

        var deleted = 0;
        while (true)
        {
            var found = (await operations.CallAsync(Operation.SearchAuthors.With(prefix, Limits.SearchLimitMax), cancellationToken).ConfigureAwait(false))
                .Where(a => a.Name.StartsWith(prefix, StringComparison.Ordinal)).Select(a => a.Id).ToList();
            if (found.Count == 0)
            {
                return deleted;
            }

            await Parallel.ForEachAsync(found, new ParallelOptions { MaxDegreeOfParallelism = 4, CancellationToken = cancellationToken },
                async (id, ct) => await operations.CallAsync(Operation.DeleteAuthor.With(id), ct).ConfigureAwait(false)).ConfigureAwait(false);
            deleted += found.Count;
        }
    }
}
