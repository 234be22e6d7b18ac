namespace ProtocolBench.Lab.Scenarios;

/// <summary>Bolanowski et al. 2022: median response time in ms over their LAN, and the verdicts of their Table 1.</summary>
public sealed record PaperFigures(double RestHttp, double GrpcHttp, double RestHttps, double GrpcHttps, string VerdictHttp, string VerdictHttps)
{
    public (double RestMs, double GrpcMs, string Verdict) On(Transport transport) =>
        transport == Transport.Http ? (RestHttp, GrpcHttp, VerdictHttp) : (RestHttps, GrpcHttps, VerdictHttps);
}
