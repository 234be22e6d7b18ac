using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace ProtocolBench.Shared.Domain;

/// <summary>
/// The project's self-signed HTTPS certificate: SAN localhost, 127.0.0.1 and ::1. Made on the user's machine
/// (certs/make-cert.sh or the benchmark command); the key never leaves it. Servers load the .pfx, clients trust the .crt.
/// </summary>
public static class ProjectCertificate
{
    public static string PfxFileName => Path.GetFileName(ProjectPaths.ServerCertificate);

    public static string CrtFileName => Path.GetFileName(ProjectPaths.TrustedCertificate);

    public static string DefaultPfxPath => ProjectPaths.ServerCertificate;

    public static string DefaultCrtPath => ProjectPaths.TrustedCertificate;

    /// <summary>Makes the certificate unless it exists (or again, with <paramref name="force"/>); says which, for the console.</summary>
    public static string Ensure(bool force = false) =>
        EnsureExists(force: force)
            ? $"Made the HTTPS certificate: {DefaultPfxPath} (server) and {DefaultCrtPath} (trusted by the clients)."
            : $"HTTPS certificate: {DefaultCrtPath}";

    /// <summary>
    /// Creates the certificate pair in <paramref name="directory"/> unless both files exist. Returns true when it made them.
    /// <paramref name="extraNames"/> (host names or IP addresses) are added to the SAN for serving another machine.
    /// </summary>
    public static bool EnsureExists(string? directory = null, bool force = false, IReadOnlyList<string>? extraNames = null)
    {
        var dir = directory ?? ProjectPaths.CertificateDirectory;
        var pfx = Path.Combine(dir, PfxFileName);
        var crt = Path.Combine(dir, CrtFileName);
        if (!force && File.Exists(pfx) && File.Exists(crt))
        {
            return false;
        }

        Directory.CreateDirectory(dir);
        using var certificate = Create("localhost", TimeSpan.FromDays(365), extraNames);
        File.WriteAllBytes(pfx, certificate.Export(X509ContentType.Pfx));
        if (!OperatingSystem.IsWindows())
        {
            File.SetUnixFileMode(pfx, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        }

        File.WriteAllText(crt, certificate.ExportCertificatePem() + "\n");
        return true;
    }

    public static X509Certificate2 Create(string commonName, TimeSpan lifetime, IReadOnlyList<string>? extraNames = null)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest($"CN={commonName}", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        names.AddIpAddress(IPAddress.IPv6Loopback);
        foreach (var name in extraNames ?? [])
        {
            if (IPAddress.TryParse(name, out var address))
            {
                names.AddIpAddress(address);
            }
            else
            {
                names.AddDnsName(name);
            }
        }

        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(
            X509KeyUsageFlags.DigitalSignature | X509KeyUsageFlags.KeyEncipherment, true));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false));
        var now = DateTimeOffset.UtcNow;
        return request.CreateSelfSigned(now.AddDays(-1), now.Add(lifetime));
    }

    /// <summary>Loads the server certificate with its key, or explains exactly how to make it.</summary>
    public static X509Certificate2 LoadServer(string? pfxPath)
    {
        var path = string.IsNullOrWhiteSpace(pfxPath) ? DefaultPfxPath : pfxPath;
        if (!File.Exists(path))
        {
            throw new InvalidOperationException(
                $"HTTPS certificate not found at {path}. Make it with:\n    {ProjectPaths.HowToMakeCertificate}\n" +
                "or point Certificate:Path at an existing .pfx.");
        }

        return X509CertificateLoader.LoadPkcs12FromFile(path, password: null);
    }
}
