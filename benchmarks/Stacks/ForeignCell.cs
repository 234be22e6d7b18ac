using ProtocolBench.Benchmarks.Config;
using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Stacks;
using ProtocolBench.Shared.Domain.Authors;

namespace ProtocolBench.Benchmarks.Stacks;

/// <summary>
/// A cell as another stack's client makes it (--client): the call it sends (<see cref="PortableScenario"/>; the floor's
/// GET /baseline), measured through <see cref="StackRunner"/> and its answer checked as this project's client's are, or
/// why the stack cannot make it.
/// </summary>
public sealed class ForeignCell
{
    private readonly string _marker;

    private ForeignCell(BenchmarkCase benchmarkCase, PortableCall? call, string? cannotMake, string marker)
    {
        Case = benchmarkCase;
        Call = call;
        CannotMake = cannotMake;
        _marker = marker;
    }

    public BenchmarkCase Case { get; }

    /// <summary>What the stack sends; null when it <see cref="CannotMake"/> the cell.</summary>
    public PortableCall? Call { get; }

    /// <summary>Why the stack cannot make this cell, as the report lists it; null when it can.</summary>
    public string? CannotMake { get; }

    public Scenario Scenario => Cell.ScenarioOf(Case);

    public Protocol Protocol => Cell.ProtocolOf(Case);

    public Transport Transport => Cell.TransportOf(Case);

    public static async Task<ForeignCell> OfAsync(ClientStack stack, BenchmarkCase benchmarkCase, string marker)
    {
        var scenario = Cell.ScenarioOf(benchmarkCase);
        var protocol = Cell.ProtocolOf(benchmarkCase);
        if (scenario.Group == ScenarioGroup.Floor)
        {
            // GET /baseline on the service's own port (HTTP/1.1 there for every protocol but gRPC).
            return protocol == Protocol.Grpc
                ? new(benchmarkCase, null, $"the floor on gRPC's port is HTTP/2 only, and the {stack.Name()} stack's HTTP client speaks HTTP/1.1", marker)
                : new(benchmarkCase, PortableScenario.Floor(protocol), null, marker);
        }

        var (call, cannotMake) = await PortableScenario.ForAsync(stack, scenario, protocol, marker);
        return new(benchmarkCase, call, cannotMake, marker);
    }

    /// <summary>
    /// One round of the cell through the stack: its iterations as the job's (one call in the dry job), the answers checked
    /// before the result counts (a create's every one, each a new author). Throws when the stack failed or an answer is wrong.
    /// </summary>
    public async Task<RoundResult> MeasureAsync(StackRunner stack, ConnectionPolicy connections, JobKind job, int round, CancellationToken cancellationToken)
    {
        var call = Call ?? throw new InvalidOperationException($"{Scenario} cannot be made: {CannotMake}");
        // The floor on a new connection always opens one; the rest as --connections says.
        var newConnection = Scenario == Catalogue.FloorNewConnection || connections == ConnectionPolicy.New;
        var iterations = job == JobKind.Smoke ? StackRunner.Iterations.Once : new StackRunner.Iterations(3, true, TimeSpan.FromMilliseconds(100));
        var measured = await stack.MeasureAsync(new StackRunner.Cell(call, Transport, newConnection, EveryAnswer: Scenario.Creates), iterations, cancellationToken);
        var read = new List<object>(measured.Answers.Count);
        foreach (var answer in measured.Answers)
        {
            read.Add(await PortableScenario.CheckAsync(Scenario, Protocol, _marker, answer));
        }

        if (Scenario.Creates && read.Cast<AuthorDto>().Select(a => a.Id).Distinct().Count() != read.Count)
        {
            throw Checks.Wrong(Scenario.Name, $"{read.Count} creates answered with fewer distinct ids");
        }

        var times = measured.Iterations;
        return new RoundResult(round, true, Statistic.Median(times), times.Average(), Statistic.Percentile(times, 95), times, AllocatedPerOp: null);
    }
}
