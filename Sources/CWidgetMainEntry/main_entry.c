#define _GNU_SOURCE
#include "widget_main_entry.h"
#include <dlfcn.h>
#include <stddef.h>

/* The `main` `@main` emits in the plugin, if any. Weak: a plugin without `@main` links too. */
extern int main(int argc, char **argv) __attribute__((weak));

/* True when `main` is defined in the same object as this code (the plugin's .so), not the
 * loading executable's own `main` (which a -Bsymbolic-free lookup could find). */
static int own_main_exists(void) {
    if (main == NULL) return 0;
    Dl_info mine, theirs;
    if (dladdr((void *)&owk_entry_through_main, &mine) == 0) return 0;
    if (dladdr((void *)main, &theirs) == 0) return 0;
    return mine.dli_fbase == theirs.dli_fbase;
}

const void *owk_entry_through_main(void) {
    const void *table = owk_registered_plugin_table();
    if (table != NULL) return table;
    if (!own_main_exists()) return NULL;
    static char name[] = "widget-plugin";
    char *argv[] = { name, NULL };
    main(1, argv);
    return owk_registered_plugin_table();
}

/* The plugin's entry point when the plugin does not define one. */
__attribute__((weak, visibility("default"))) const void *widget_plugin_entry_v1(void) {
    return owk_entry_through_main();
}

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void owk_each_preview_function(void *context, void (*each)(void *function, void *context)) {
    Dl_info self;
    if (dladdr((void *)&owk_each_preview_function, &self) == 0 || self.dli_fname == NULL) return;
    int fd = open(self.dli_fname, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) { close(fd); return; }
    size_t size = (size_t)st.st_size;
    const unsigned char *file = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (file == MAP_FAILED) return;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff == 0 || eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size) {
        munmap((void *)file, size);
        return;
    }
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + eh->e_shoff);
    static const char prefix[] = "owk_preview_";
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sections[i].sh_type != SHT_DYNSYM || sections[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *strtab = &sections[sections[i].sh_link];
        if (sections[i].sh_offset + sections[i].sh_size > size || strtab->sh_offset + strtab->sh_size > size) break;
        const Elf64_Sym *syms = (const Elf64_Sym *)(file + sections[i].sh_offset);
        size_t count = sections[i].sh_size / sizeof(Elf64_Sym);
        const char *names = (const char *)(file + strtab->sh_offset);
        for (size_t k = 0; k < count; k++) {
            if (ELF64_ST_TYPE(syms[k].st_info) != STT_FUNC || syms[k].st_shndx == SHN_UNDEF) continue;
            if (syms[k].st_name >= strtab->sh_size) continue;
            const char *name = names + syms[k].st_name;
            if (strnlen(name, strtab->sh_size - syms[k].st_name) == strtab->sh_size - syms[k].st_name) continue;
            if (strncmp(name, prefix, sizeof prefix - 1) != 0) continue;
            each((void *)((const char *)self.dli_fbase + syms[k].st_value), context);
        }
    }
    munmap((void *)file, size);
}

/* The bundle's compiled resources (the WidgetBundleSupport build plugin's generated file), if
 * this object has them. Weak: a bundle without resources links too. */
extern const void *owk_bundle_resources_v1(long *count) __attribute__((weak));

const void *owk_own_bundle_resources(long *count) {
    *count = 0;
    if (owk_bundle_resources_v1 == NULL) return NULL;
    Dl_info mine, theirs;
    if (dladdr((void *)&owk_own_bundle_resources, &mine) == 0) return NULL;
    if (dladdr((void *)owk_bundle_resources_v1, &theirs) == 0) return NULL;
    if (mine.dli_fbase != theirs.dli_fbase) return NULL;  /* another object's, not this bundle's */
    return owk_bundle_resources_v1(count);
}
