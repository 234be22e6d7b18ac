using System.Security.Cryptography;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>What a user should see: the committed files' bytes and the seed's known counts (docs/methodology.md).</summary>
public static class Expected
{
    public const int AuthorsMatchingAuthor1 = 3_112;
    public const int AuthorsMatchingAuthor100 = 111;
    public const int AuthorsMatchingAuthor1000 = 11;
    public const int TextFileBytes = 465_920;
    public const int PdfBytes = 3_565_158;

    private static readonly string FixtureDirectory = Path.Combine(ProjectPaths.RootOrCurrent, "src", "Shared.Domain", "Fixtures");

    public static readonly byte[] TextFile = File.ReadAllBytes(Path.Combine(FixtureDirectory, "text-455k.txt"));

    public static readonly byte[] Pdf = File.ReadAllBytes(Path.Combine(FixtureDirectory, "document-3.4m.pdf"));

    public static string Sha256(byte[] data) => Convert.ToHexStringLower(SHA256.HashData(data));
}
