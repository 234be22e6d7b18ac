#:project ../src/Shared.Domain/Shared.Domain.csproj
// Makes the project's HTTPS certificate with the same code the benchmark command uses:
//   dotnet run certs/make-cert.cs [-- --force] [-- --dir PATH] [-- --name server.lan --name 192.168.1.20]
// --name adds a host name or address to localhost, 127.0.0.1 and ::1 (for serving another machine).
using ProtocolBench.Shared.Domain;

var force = args.Contains("--force");
var dirIndex = Array.IndexOf(args, "--dir");
var dir = dirIndex >= 0 && dirIndex + 1 < args.Length ? args[dirIndex + 1] : ProjectPaths.CertificateDirectory;
var names = args.Select((arg, i) => (arg, i)).Where(a => a.arg == "--name" && a.i + 1 < args.Length).Select(a => args[a.i + 1]).ToList();
var made = ProjectCertificate.EnsureExists(dir, force, names);
Console.WriteLine(made
    ? $"Created {Path.Combine(dir, ProjectCertificate.PfxFileName)} (server, with key) and {Path.Combine(dir, ProjectCertificate.CrtFileName)} (trust this one)" +
      $" for localhost, 127.0.0.1, ::1{string.Concat(names.Select(n => ", " + n))}."
    : $"Certificate already present in {dir} (use --force to replace it).");
