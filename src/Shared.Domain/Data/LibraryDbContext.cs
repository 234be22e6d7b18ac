namespace ProtocolBench.Shared.Domain.Data;

public sealed class LibraryDbContext(DbContextOptions<LibraryDbContext> options) : DbContext(options)
{
    public DbSet<Author> Authors => Set<Author>();

    public DbSet<Book> Books => Set<Book>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity<Author>(author =>
        {
            author.ToTable("authors");
            author.Property(a => a.Id).HasColumnName("id");
            author.Property(a => a.Name).HasColumnName("name").HasMaxLength(Limits.AuthorNameMaxLength).IsRequired();
            author.Property(a => a.Country).HasColumnName("country").HasMaxLength(Limits.AuthorCountryMaxLength).IsRequired();
            author.HasMany(a => a.Books).WithOne().HasForeignKey(b => b.AuthorId).OnDelete(DeleteBehavior.Cascade);
        });
        modelBuilder.Entity<Book>(book =>
        {
            book.ToTable("books");
            book.Property(b => b.Id).HasColumnName("id");
            book.Property(b => b.AuthorId).HasColumnName("author_id");
            book.Property(b => b.Title).HasColumnName("title").HasMaxLength(Limits.BookTitleMaxLength).IsRequired();
            book.Property(b => b.Year).HasColumnName("year");
        });
    }
}
