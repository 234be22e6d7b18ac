namespace ProtocolBench.Shared.Domain;

/// <summary>
/// What the benchmark's floors ask for and get, known alike to the services that answer and to the clients that check:
/// GET /baseline's fixed bytes (the round trip with no work behind it), and the one-byte requests of the loopback
/// sender (a payload file's bytes over plain TCP, with no protocol).
/// </summary>
public static class Floors
{
    /// <summary>The fixed bytes GET /baseline returns: the transport floor every protocol's numbers sit on.</summary>
    public static readonly byte[] BaselineBody = "protocolbench-baseline\n"u8.ToArray();

    /// <summary>Asks the loopback sender for the text file.</summary>
    public const byte SendTextFile = (byte)'t';

    /// <summary>Asks the loopback sender for the PDF.</summary>
    public const byte SendPdf = (byte)'p';
}
