namespace ProtocolBench.Shared.Hosting;

/// <summary>
/// Bound from "Compression": off by default, so that an answer is the same bytes whatever the client sends. On
/// (--Compression:Enabled=true, which the commands pass for --compression gzip|br), REST and GraphQL compress their JSON
/// responses with gzip or br as the request's Accept-Encoding asks, over HTTPS too, and gRPC compresses its replies with
/// gzip when the call accepts it; all at the "optimal" level (gzip 6, Brotli 4).
/// </summary>
public sealed class CompressionOptions
{
    public const string Section = "Compression";

    public bool Enabled { get; set; }

    public static bool IsEnabled(IConfiguration configuration) => configuration.GetValue<bool>($"{Section}:{nameof(Enabled)}");
}
