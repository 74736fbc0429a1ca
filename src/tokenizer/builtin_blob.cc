// Embeds data/tokenizer/o200k_base.sbtk into the binary (the `builtin` tokenizer). The path and
// the file's hash come from CMake; the hash is in the source so ccache notices a changed blob.
#ifndef SB_O200K_BLOB_PATH
#error "SB_O200K_BLOB_PATH must be defined by the build"
#endif

// Keeps the blob's checksum in the preprocessed source: a changed blob changes this object.
extern "C" const char sb_o200k_blob_sha256[] = SB_O200K_BLOB_SHA256;

__asm__(
    ".section .rodata\n"
    ".global sb_o200k_blob\n"
    ".type sb_o200k_blob, @object\n"
    ".balign 16\n"
    "sb_o200k_blob:\n"
    ".incbin \"" SB_O200K_BLOB_PATH "\"\n"
    ".global sb_o200k_blob_end\n"
    ".type sb_o200k_blob_end, @object\n"
    "sb_o200k_blob_end:\n"
    ".byte 0\n"
    ".previous\n");
