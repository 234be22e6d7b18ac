namespace ProtocolBench.Shared.Domain.Payloads;

/// <summary>Bolanowski scenarios I–V (docs/methodology.md), no database. Validation happens before anything is allocated.</summary>
public static class PayloadOperations
{
    /// <summary>Scenario II's fixed paragraph: 615 ASCII characters.</summary>
    public const string LoremIpsum =
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore " +
        "magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo " +
        "consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. " +
        "Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum. " +
        "Curabitur pretium tincidunt lacus nulla gravida orci a odio, nullam varius turpis et commodo pharetra est eros" +
        " bibendum elit, nec luctus magna felis sollicitudin mauris.";

    public const int IntMax = int.MaxValue;

    public static readonly AuthorDto Sample = new(
        1,
        "Stanisław Lem",
        "Poland",
        [
            new BookDto(1, 1, "Solaris", 1961),
            new BookDto(2, 1, "The Cyberiad", 1965),
            new BookDto(3, 1, "His Master's Voice", 1968),
        ]);

    public static string Clone(string? text, int? count)
    {
        var value = Validate.Text("text", text, Limits.CloneTextMaxLength, allowControl: true);
        var times = Validate.Required("count", count);
        Validate.Range("count", times, 0, Limits.CloneCountMax);
        var total = (long)value.Length * times;
        if (total > Limits.CloneOutputMaxChars)
        {
            throw DomainException.Invalid(
                "count",
                $"text length × count must be at most {Limits.CloneOutputMaxChars} characters (was {total}).");
        }

        return string.Create((int)total, value, static (span, text) =>
        {
            for (var offset = 0; offset < span.Length; offset += text.Length)
            {
                text.AsSpan().CopyTo(span[offset..]);
            }
        });
    }

    public static int[] Ints(int? count)
    {
        var length = Validate.Required("count", count);
        Validate.Range("count", length, 0, Limits.IntsCountMax);
        var values = GC.AllocateUninitializedArray<int>(length);
        for (var i = 0; i < values.Length; i++)
        {
            values[i] = i;
        }

        return values;
    }
}
