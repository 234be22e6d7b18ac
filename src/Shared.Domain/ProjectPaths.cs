namespace ProtocolBench.Shared.Domain;

/// <summary>Finds the repository (the folder holding ProtocolBench.sln) from wherever a program was started.</summary>
public static class ProjectPaths
{
    public const string SolutionFile = "ProtocolBench.sln";

    public static string? FindRoot()
    {
        foreach (var start in new[] { Directory.GetCurrentDirectory(), AppContext.BaseDirectory })
        {
            for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, SolutionFile)))
                {
                    return dir.FullName;
                }
            }
        }

        return null;
    }

    public static string RootOrCurrent => FindRoot() ?? Directory.GetCurrentDirectory();

    public static string CertificateDirectory => Path.Combine(RootOrCurrent, "certs");

    /// <summary>The project certificate's public part: the one certificate the clients trust.</summary>
    public static string TrustedCertificate => Path.Combine(CertificateDirectory, "protocolbench.crt");

    /// <summary>The server certificate with its private key, made on this machine and never committed.</summary>
    public static string ServerCertificate => Path.Combine(CertificateDirectory, "protocolbench.pfx");

    public const string HowToMakeCertificate = "bash certs/make-cert.sh   (or: dotnet run -c Release --project benchmarks -- --make-cert)";
}
