using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using ProtocolBench.Shared.Domain;

namespace ProtocolBench.Shared.Clients;

/// <summary>What the clients trust over HTTPS: the project's certificate and nothing else.</summary>
public static class TlsTrust
{
    /// <summary>The public certificate (certs/protocolbench.crt unless a path is given), or how to make it.</summary>
    public static X509Certificate2 Load(string? crtPath = null)
    {
        var path = string.IsNullOrWhiteSpace(crtPath) ? ProjectPaths.TrustedCertificate : crtPath;
        if (!File.Exists(path))
        {
            throw new InvalidOperationException($"Trusted certificate not found at {path}. Make it with:\n    {ProjectPaths.HowToMakeCertificate}");
        }

        return X509Certificate2.CreateFromPem(File.ReadAllText(path));
    }

    /// <summary>
    /// TLS settings that accept exactly <paramref name="trusted"/>: a custom root store holding it, and the usual
    /// host-name check. No callback that waves certificates through.
    /// </summary>
    public static SslClientAuthenticationOptions Only(X509Certificate2 trusted)
    {
        var policy = new X509ChainPolicy
        {
            TrustMode = X509ChainTrustMode.CustomRootTrust,
            RevocationMode = X509RevocationMode.NoCheck,
        };
        policy.CustomTrustStore.Add(trusted);
        // ALPN (h2 or http/1.1) is chosen by SocketsHttpHandler from each request's version.
        return new SslClientAuthenticationOptions { CertificateChainPolicy = policy };
    }
}
