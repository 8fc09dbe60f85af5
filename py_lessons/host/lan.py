"""What learners type or scan: the laptop's addresses their devices can reach on the Wi-Fi or
hotspot, and a URL as a QR code drawn in the terminal."""

from __future__ import annotations

import ipaddress
import socket
import struct
from collections.abc import Iterable

QUIET_ZONE = 4  # light modules around the code, as the QR standard asks: the terminal's own
                # background may be dark, so the code paints its margin itself
_SIOCGIFADDR = 0x8915  # Linux's ioctl for an interface's IPv4 address


def learner_addresses(candidates: Iterable[str]) -> list[str]:
    """The IPv4 addresses among ``candidates`` that another device can reach (not loopback,
    link-local, multicast or unspecified), each once; private ranges (a hotspot's, a school
    router's) first, in the order found."""
    found: list[ipaddress.IPv4Address] = []
    for text in candidates:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if (address.version != 4 or address.is_loopback or address.is_link_local or address.is_multicast
                or address.is_unspecified or address in found):
            continue
        found.append(address)
    return [str(address) for address in sorted(found, key=lambda address: not address.is_private)]


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses as its system reports them; no packet is sent."""
    found = []
    try:  # Windows and macOS list every interface's address under the host's name
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    return found + _linux_interface_addresses()


def _linux_interface_addresses() -> list[str]:
    """Each network interface's address (Debian maps the host's name to 127.0.1.1 only)."""
    try:
        import fcntl
    except ImportError:  # Windows
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            try:
                answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address, or not Linux
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def qr_lines(text: str) -> list[str]:
    """``text`` as a QR code in the terminal: two modules per character cell with half blocks,
    drawn in black on white (ANSI colours) whatever the terminal's own colours are."""
    import segno  # the optional extra "host": only --lan draws a code

    matrix = segno.make(text, error="m", micro=False).matrix
    size = len(matrix)  # always odd: one light row more makes the pairs of rows come out even
    dark = [[False] * (size + 2 * QUIET_ZONE) for _ in range(size + 2 * QUIET_ZONE + 1)]
    for y, row in enumerate(matrix):
        for x, module in enumerate(row):
            dark[y + QUIET_ZONE][x + QUIET_ZONE] = bool(module)
    blocks = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    return ["\033[30;47m" + "".join(blocks[top, bottom] for top, bottom in zip(upper, lower, strict=True)) + "\033[0m"
            for upper, lower in zip(dark[0::2], dark[1::2], strict=True)]
