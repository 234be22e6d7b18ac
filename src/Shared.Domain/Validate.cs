using System.Globalization;
using System.Text;

namespace ProtocolBench.Shared.Domain;

/// <summary>Argument checks that run before any allocation or query. Messages are what clients read.</summary>
public static class Validate
{
    public static int Required(string field, int? value) =>
        value ?? throw DomainException.Invalid(field, $"{field} is required.");

    /// <summary>
    /// A value sent where a whole number of 32 bits belongs that is not one ("abc", 1.5, 2³¹, a 64-bit varint): the same
    /// words from every protocol's reader, before the domain sees the request.
    /// </summary>
    public static DomainException NotAnInt32(string field) =>
        DomainException.Invalid(field, $"{field} must be a whole number from {int.MinValue} to {int.MaxValue}.");

    /// <summary>A number or anything else sent where text belongs.</summary>
    public static DomainException NotText(string field) => DomainException.Invalid(field, $"{field} must be text.");

    public static void Range(string field, long value, long min, long max)
    {
        if (value < min || value > max)
        {
            throw DomainException.Invalid(field, $"{field} must be between {min} and {max} (was {value}).");
        }
    }

    public static void AtLeast(string field, long value, long min)
    {
        if (value < min)
        {
            throw DomainException.Invalid(field, $"{field} must be at least {min} (was {value}).");
        }
    }

    /// <summary>
    /// Text of 1 to <paramref name="maxLength"/> UTF-16 units, valid Unicode. Names, countries and search phrases also need a
    /// visible character and no control characters: text made only of white space, zero-width or other format characters
    /// (U+200B, U+FEFF) is refused on every protocol alike. <paramref name="allowControl"/> is for payload text, taken as is.
    /// </summary>
    public static string Text(string field, string? value, int maxLength, bool allowControl = false)
    {
        if (string.IsNullOrEmpty(value))
        {
            throw DomainException.Invalid(field, $"{field} is required (1 to {maxLength} characters).");
        }

        if (value.Length > maxLength)
        {
            throw DomainException.Invalid(field, $"{field} must be 1 to {maxLength} characters (was {value.Length}).");
        }

        for (var i = 0; i < value.Length; i++)
        {
            var c = value[i];
            if (!allowControl && char.IsControl(c))
            {
                throw DomainException.Invalid(field, $"{field} must not contain control characters (U+{(int)c:X4} at {i}).");
            }

            if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(c))
            {
                throw DomainException.Invalid(field, $"{field} must be valid Unicode (unpaired surrogate at {i}).");
            }
        }

        if (!allowControl && !HasVisibleCharacter(value))
        {
            throw DomainException.Invalid(field, $"{field} must contain a visible character (not only white space or invisible characters).");
        }

        return value;
    }

    private static bool HasVisibleCharacter(string value)
    {
        foreach (var rune in value.EnumerateRunes())
        {
            if (!Rune.IsWhiteSpace(rune) && Rune.GetUnicodeCategory(rune) is not (UnicodeCategory.Format or UnicodeCategory.Control))
            {
                return true;
            }
        }

        return false;
    }
}
