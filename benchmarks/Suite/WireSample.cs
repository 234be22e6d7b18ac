namespace ProtocolBench.Benchmarks.Suite;

/// <param name="SentPerOp">Request bytes per operation at the socket (TLS records on HTTPS).</param>
/// <param name="ReceivedPerOp">Response bytes per operation at the socket.</param>
/// <param name="Operations">How many serial operations the averages come from.</param>
public sealed record WireSample(double SentPerOp, double ReceivedPerOp, int Operations)
{
    public double TotalPerOp => SentPerOp + ReceivedPerOp;
}
