using System.Security.Cryptography;

namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>Scenarios VI and VII: the two committed files, read once at start and served byte-exact from memory.</summary>
public sealed class PayloadFiles
{
    public const string TextFileName = "text-455k.txt";
    public const string PdfFileName = "document-3.4m.pdf";
    public const string TextContentType = "text/plain; charset=utf-8";
    public const string PdfContentType = "application/pdf";

    private readonly byte[]? _text;
    private readonly byte[]? _pdf;
    private readonly FilePayload? _textFile;
    private readonly FilePayload? _pdfFile;

    private PayloadFiles(string directory, byte[]? text, byte[]? pdf, string? error)
    {
        Directory = directory;
        _text = text;
        _pdf = pdf;
        _textFile = text is null ? null : new FilePayload(TextFileName, TextContentType, text);
        _pdfFile = pdf is null ? null : new FilePayload(PdfFileName, PdfContentType, pdf);
        Error = error;
        TextSha256 = text is null ? "" : Convert.ToHexStringLower(SHA256.HashData(text));
        PdfSha256 = pdf is null ? "" : Convert.ToHexStringLower(SHA256.HashData(pdf));
    }

    public static string DefaultDirectory => Path.Combine(AppContext.BaseDirectory, "Fixtures");

    public string Directory { get; }

    /// <summary>Why the files could not be loaded; null when they were. Health checks report it.</summary>
    public string? Error { get; }

    public bool IsAvailable => Error is null;

    public byte[] Text => _text ?? throw Unavailable();

    public byte[] Pdf => _pdf ?? throw Unavailable();

    /// <summary>Scenario VI as every protocol answers it: the text file with its name and content type, made once.</summary>
    public FilePayload TextFile => _textFile ?? throw Unavailable();

    /// <summary>Scenario VII as every protocol answers it.</summary>
    public FilePayload PdfFile => _pdfFile ?? throw Unavailable();

    public string TextSha256 { get; }

    public string PdfSha256 { get; }

    /// <summary>Never throws: a missing file makes the service unhealthy and its file operations UNAVAILABLE.</summary>
    public static PayloadFiles Load(string? directory = null)
    {
        var dir = string.IsNullOrWhiteSpace(directory) ? DefaultDirectory : directory;
        try
        {
            return new PayloadFiles(
                dir,
                File.ReadAllBytes(Path.Combine(dir, TextFileName)),
                File.ReadAllBytes(Path.Combine(dir, PdfFileName)),
                null);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return new PayloadFiles(dir, null, null, $"Payload files not available in {dir}: {e.Message}");
        }
    }

    private DomainException Unavailable() => new(ErrorCode.Unavailable, "file", "The payload files are not available on this server.");
}
