namespace ProtocolBench.Shared.Hosting;

/// <summary>Bound from "Certificate".</summary>
public sealed class CertificateOptions
{
    public const string Section = "Certificate";

    /// <summary>The server .pfx; empty means certs/protocolbench.pfx in the repository.</summary>
    public string? Path { get; set; }
}
