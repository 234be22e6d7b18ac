namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>Standard normal draws for the tests' synthetic rounds (Box–Muller; System.Random has none).</summary>
public static class Gaussian
{
    public static double Normal(this Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}
