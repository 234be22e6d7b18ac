using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Services;

namespace ProtocolBench.Benchmarks.Cli;

/// <summary>
/// What must hold when a measuring run ends: every report written, every cell, domain floor and loopback transfer measured in every round
/// (all of the suite's when nothing was filtered), wire bytes for every cell, no service died. Problems decide the exit code.
/// </summary>
public sealed class RunChecks(ServiceSession session)
{
    private readonly List<string> _problems = [];

    public void Add(string problem) => _problems.Add(problem);

    /// <summary>
    /// The measured results against what was asked: <paramref name="filtered"/> when BenchmarkDotNet's filter chose the
    /// cells; <paramref name="notMade"/> the cells the --client stack cannot make (listed in the report). Another stack's
    /// cells have no wire bytes (they are counted in this process).
    /// </summary>
    public void CheckResults(RunFile run, bool filtered, IReadOnlyCollection<BenchmarkCase> notMade)
    {
        var foreign = run.Run.Conditions.Client != ClientStack.Dotnet;
        var cells = run.Cells;
        var domainFloors = run.DomainFloors ?? [];
        var transfers = run.Transfers ?? [];
        _problems.AddRange(cells.Where(c => !c.Success).Select(c =>
            $"failed: {c.Scenario} {Display.Of(c.Protocol, c.Transport)} in round {string.Join(", ", c.Rounds.Where(r => !r.Success).Select(r => r.Round))}"));
        _problems.AddRange(domainFloors.Where(d => !d.Success).Select(d =>
            $"failed: {d.Scenario} in process in round {string.Join(", ", d.Rounds.Where(r => !r.Success).Select(r => r.Round))}"));
        _problems.AddRange(transfers.Where(t => !t.Success).Select(t =>
            $"failed: {t.Scenario} over plain TCP in round {string.Join(", ", t.Rounds.Where(r => !r.Success).Select(r => r.Round))}"));
        _problems.AddRange(cells.Where(c => c.Success && c.Wire is null && !foreign).Select(c => $"no wire bytes: {c.Scenario} {Display.Of(c.Protocol, c.Transport)}"));
        if (!filtered)
        {
            var measured = cells.Where(c => c.Success).Select(c => (c.Scenario, c.Protocol, c.Transport))
                .Concat(notMade.Select(c => (Cell.ScenarioOf(c), Cell.ProtocolOf(c), Cell.TransportOf(c)))).ToHashSet();
            _problems.AddRange(ExpectedCells().Where(e => !measured.Contains(e)).Select(e => $"absent cell: {e.Scenario} {Display.Of(e.Protocol, e.Transport)}"));
            var floors = domainFloors.Select(d => d.Scenario).ToHashSet();
            _problems.AddRange(Catalogue.All
                .Where(s => s.HasRequest && (!s.UsesDatabase || session.Database is not null) && !floors.Contains(s))
                .Select(s => $"absent domain floor: {s}"));
            if (session.Addresses.SenderPort is not null)
            {
                var transferred = transfers.Select(t => t.Scenario).ToHashSet();
                _problems.AddRange(Catalogue.In(ScenarioGroup.BinaryFiles).Where(s => !transferred.Contains(s)).Select(s => $"absent loopback transfer: {s}"));
            }
        }
        else if (cells.Count == 0 && domainFloors.Count == 0 && transfers.Count == 0 && run.Run.Interrupted is null)
        {
            // (An interrupted run is checked as a filtered one: what it had not reached yet is not missing.)
            _problems.Add("the filter matched no benchmark");
        }
    }

    /// <summary>Prints the verdict of the checks and returns the exit code: 0, 1 (a check failed) or 3 (a service died).</summary>
    /// <param name="interrupted">Whether Ctrl+C or SIGTERM ended the run: what was measured is then a part.</param>
    public int Conclude(int cells, int domainFloors, int transfers, bool interrupted = false)
    {
        _problems.InsertRange(0, session.Deaths.Values.Select(death => $"{death}; the results so far are in the reports"));
        if (_problems.Count == 0)
        {
            var what = transfers > 0 ? $"{cells} cells, {domainFloors} domain floors and {transfers} loopback transfers" : $"{cells} cells and {domainFloors} domain floors";
            Console.WriteLine(interrupted
                ? $"Interrupted: {what} measured before it, and every report written."
                : $"All {what} measured and every report written.");
            return ExitCodes.Ok;
        }

        Console.Error.WriteLine($"{_problems.Count} problem(s):");
        foreach (var problem in _problems)
        {
            Console.Error.WriteLine($"  {problem}");
        }

        return session.Deaths.Count > 0 ? ExitCodes.ServiceFailed : ExitCodes.CheckFailed;
    }

    /// <summary>Every cell of the full suite: each scenario on each protocol it applies to, over both transports.</summary>
    public static IEnumerable<(Scenario Scenario, Protocol Protocol, Transport Transport)> ExpectedCells() =>
        from scenario in Catalogue.All
        from protocol in scenario.Protocols
        from transport in Display.Transports
        select (scenario, protocol, transport);
}
