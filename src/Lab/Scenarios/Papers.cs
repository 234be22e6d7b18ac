namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// The papers ProtocolBench reproduces, and Śliwa &amp; Pańczyk's claims about their study as a whole; the claims
/// about single scenarios sit with the scenarios in <see cref="Catalogue"/> (<see cref="Scenario.Paper"/>, <see cref="Scenario.Sliwa"/>).
/// </summary>
public static class Papers
{
    public const string Sliwa = "Śliwa & Pańczyk 2021";

    public const string Bolanowski = "Bolanowski et al. 2022";

    public const string Kaminski = "Kamiński et al. 2023";

    /// <summary>Kamiński et al.'s three operations: create one entity, fetch one, fetch 100.</summary>
    public static readonly IReadOnlyList<string> KaminskiScenarios = ["get-one", "list-100", "create"];

    public const string GrpcBytesClaim = "gRPC receives about half the bytes of the others (per request, searches)";

    /// <summary>"About half": the median share of gRPC's bytes that counts as reproducing it.</summary>
    public static readonly (double Low, double High) GrpcBytesShare = (0.35, 0.65);

    public const string RestBestClaim = "REST has the best throughput and latency overall";
}
