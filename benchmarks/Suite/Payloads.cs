using BenchmarkDotNet.Attributes;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>Bolanowski et al. scenarios I–V with the paper's arguments (SPEC §6): no database behind them.</summary>
public class Payloads : ProtocolBenchmark
{
    public const string HelloWorld = "Hello World!";
    public const int LoremCount = 1000;
    public const int IntsCount = 10_000;

    private static readonly string Lorem1000 = PayloadOperations.Clone(PayloadOperations.LoremIpsum, LoremCount);

    [Benchmark]
    public async Task<string> CloneHelloWorld() =>
        Expect.Equal(await Client.CloneAsync(HelloWorld, 1), HelloWorld, "clone(\"Hello World!\", 1)");

    [Benchmark]
    public async Task<string> CloneLorem1000() =>
        Expect.Text(await Client.CloneAsync(PayloadOperations.LoremIpsum, LoremCount), Lorem1000, "clone(lorem, 1000)");

    [Benchmark]
    public async Task<int> IntMax() =>
        Expect.Equal(await Client.GetIntMaxAsync(), int.MaxValue, "int max");

    [Benchmark]
    public async Task<int[]> Ints10000() =>
        Expect.Ints(await Client.GetIntsAsync(IntsCount), IntsCount, "ints(10000)");

    [Benchmark]
    public async Task<AuthorDto> Sample() =>
        Expect.Equal(await Client.GetSampleAsync(), PayloadOperations.Sample, "sample");

    protected override async Task VerifyAsync()
    {
        Expect.Equal(await Client.CloneAsync(PayloadOperations.LoremIpsum, LoremCount), Lorem1000, "clone(lorem, 1000)");
        if (!(await Client.GetIntsAsync(IntsCount)).SequenceEqual(Enumerable.Range(0, IntsCount)))
        {
            throw Expect.Wrong("ints(10000)", "values are not 0..9999 in order");
        }
    }
}
