#!/usr/bin/env python3
"""Independent reference for src/core/rng.h: prints the golden values used in rng_test.cc."""
M = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return state, z ^ (z >> 31)


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M


class Xoshiro256ss:
    def __init__(self, seed):
        self.s = []
        for _ in range(4):
            seed, v = splitmix64(seed)
            self.s.append(v)

    def next(self):
        s = self.s
        r = (rotl((s[1] * 5) & M, 7) * 9) & M
        t = (s[1] << 17) & M
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
        s[3] = rotl(s[3], 45)
        return r


def fnv1a64(b):
    h = 0xCBF29CE484222325
    for c in b:
        h ^= c
        h = (h * 0x100000001B3) & M
    return h


if __name__ == "__main__":
    print("splitmix64(1234567):", splitmix64(1234567)[1])
    x = Xoshiro256ss(42)
    print("seed 42:", [x.next() for _ in range(4)])
    x = Xoshiro256ss(42)
    print("doubles:", [repr((x.next() >> 11) * 2.0 ** -53) for _ in range(3)])
    _, d = splitmix64(42 ^ fnv1a64(b"arrivals"))
    y = Xoshiro256ss(d)
    print("stream(42, arrivals):", [y.next() for _ in range(3)])
