namespace ProtocolBench.Benchmarks.Reporting;

/// <summary>Bolanowski et al. 2022, median response time in ms (SPEC §9), and their Table 1 verdicts.</summary>
public sealed record PaperRow(double RestHttp, double GrpcHttp, double RestHttps, double GrpcHttps, string VerdictHttp, string VerdictHttps);

/// <summary>One row of the reports: an operation, the benchmark method that measures it and, for I–VII, the paper's numbers.</summary>
public sealed record Scenario(string Label, string Class, string Method, PaperRow? Paper = null)
{
    public const string Both = "both";

    public static readonly IReadOnlyList<Scenario> All =
    [
        new("Floor: GET /baseline (fixed 23 B)", "Baseline", "Floor"),
        new("I clone \"Hello World!\" ×1", "Payloads", "CloneHelloWorld", new(4, 8, 22, 21, "REST", Both)),
        new("II clone 615 chars ×1000", "Payloads", "CloneLorem1000", new(57, 68, 76, 82, "REST", Both)),
        new("III Int32 max", "Payloads", "IntMax", new(3, 7, 22, 21, "REST", "REST")),
        new("IV 10,000 ints", "Payloads", "Ints10000", new(8, 12, 27, 25, "REST", Both)),
        new("V small object", "Payloads", "Sample", new(3, 8, 22, 21, "REST", Both)),
        new("VI 455 KB text file (JSON base64 / bytes field)", "Files", "TextFile", new(57, 53, 75, 66, Both, "gRPC")),
        new("VII 3.4 MB PDF (JSON base64 / bytes field)", "Files", "Pdf", new(416, 361, 473, 370, "gRPC", "gRPC")),
        new("VI text file, binary (REST raw / gRPC bytes)", "BinaryFiles", "TextFileBinary"),
        new("VII PDF, binary (REST raw / gRPC StreamPdf)", "BinaryFiles", "PdfBinary"),
        new("Search \"Author - 1\" → 3,112 authors", "Authors", "Search3112"),
        new("Search \"Author - 100\" → 111 authors", "Authors", "Search111"),
        new("Search \"Author - 1000\" → 11 authors", "Authors", "Search11"),
        new("Get one author", "Authors", "GetOne"),
        new("List 100 authors", "Authors", "List100"),
        new("Create author", "Authors", "Create"),
    ];

    public string Short => Label.Split(" (")[0];
}
