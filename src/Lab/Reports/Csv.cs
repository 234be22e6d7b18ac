using CsvHelper;

namespace ProtocolBench.Lab.Reports;

/// <summary>The CSV files of both commands' results folders, through CsvHelper (RFC 4180 quoting).</summary>
public static class Csv
{
    /// <summary>A header and rows; each field written invariantly (numbers already formatted, see <see cref="Number"/>).</summary>
    public static string Of(string[] header, IEnumerable<object?[]> rows)
    {
        using var text = new StringWriter(CultureInfo.InvariantCulture);
        using (var csv = CsvWriter.Create(text, new CsvWriterOptions(), leaveOpen: true))
        {
            csv.WriteHeader(header);
            foreach (var row in rows)
            {
                csv.WriteRecord(row.Select(field => Convert.ToString(field, CultureInfo.InvariantCulture) ?? "").ToArray());
            }
        }

        return text.ToString();
    }

    /// <summary>A number rounded to four decimals, invariantly; empty when it is not finite.</summary>
    public static string Number(double value) =>
        double.IsFinite(value) ? Math.Round(value, 4).ToString(CultureInfo.InvariantCulture) : "";
}
