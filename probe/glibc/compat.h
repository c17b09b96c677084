/* Included in every C file of the probe's build (CGO_CFLAGS=-include), so
 * that the binary asks for the oldest glibc version of each function it
 * calls: glibc 2.34 moved the pthread and dl functions into libc.so.6 under
 * new versions, and a binary linked against it would otherwise need 2.34.
 * The old versions are still in every glibc since; on glibc before 2.34
 * they live in libpthread.so.0 and libdl.so.2, which the link names. The
 * baseline is the first glibc of each architecture: 2.2.5 on x86-64, 2.17
 * on arm64. */
#if defined(__x86_64__)
#define P2P_GLIBC_OLD "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define P2P_GLIBC_OLD "GLIBC_2.17"
#endif
#if defined(P2P_GLIBC_OLD) && !defined(__ASSEMBLER__)
#define P2P_OLD(f) __asm__(".symver " #f "," #f "@" P2P_GLIBC_OLD);
P2P_OLD(dlopen)
P2P_OLD(dlsym)
P2P_OLD(dlerror)
P2P_OLD(dlclose)
P2P_OLD(pthread_create)
P2P_OLD(pthread_detach)
P2P_OLD(pthread_key_create)
P2P_OLD(pthread_setspecific)
P2P_OLD(pthread_getspecific)
P2P_OLD(pthread_getattr_np)
P2P_OLD(pthread_attr_getstack)
P2P_OLD(pthread_attr_getstacksize)
P2P_OLD(pthread_attr_setstacksize)
P2P_OLD(pthread_sigmask)
P2P_OLD(pthread_mutex_trylock)
P2P_OLD(pthread_once)
#endif
