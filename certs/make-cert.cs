#:project ../src/Shared.Hosting/Shared.Hosting.csproj
// Makes the project's HTTPS certificate with the same code the benchmark command uses:
//   dotnet run certs/make-cert.cs [-- --force] [-- --dir PATH]
using ProtocolBench.Shared.Hosting;

var force = args.Contains("--force");
var dirIndex = Array.IndexOf(args, "--dir");
var dir = dirIndex >= 0 && dirIndex + 1 < args.Length ? args[dirIndex + 1] : ProjectPaths.CertificateDirectory;
var made = ProjectCertificate.EnsureExists(dir, force);
Console.WriteLine(made
    ? $"Created {Path.Combine(dir, ProjectCertificate.PfxFileName)} (server, with key) and {Path.Combine(dir, ProjectCertificate.CrtFileName)} (trust this one)."
    : $"Certificate already present in {dir} (use --force to replace it).");
