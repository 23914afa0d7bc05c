/**
 * Royal Mail's wholly non-geographic postcode districts: PO boxes and large users (SW95,
 * E98, EC50, N81, NW26, SE1P, W1A, ...), whose point is a sorting office or a company's
 * address, not the places named on their rows (SW95's "Wandsworth" row lies at Nine Elms,
 * 5.2 km from Wandsworth; audit 65a F17). Source: Wikipedia, "List of postcode districts in
 * the United Kingdom" (revision of 2024, which follows Royal Mail's Postcode Address File),
 * every district marked "non-geo" in all of its rows. Districts only partly non-geographic
 * there (BA9, DA7, HX1, ...: a sector or a post town's share) are geographic here. The BX
 * and BF areas are not in the GeoNames file.
 */
export const NON_GEOGRAPHIC_OUTCODES: ReadonlySet<string> = new Set(
  (
    'AB99 B99 BB94 BD97 BD98 BD99 BF1 BL11 BL78 BN50 BN51 BN52 BN88 BN91 BN99 BS0 BS80 BS98 BS99 BT58 ' +
    'CA95 CA99 CF30 CF91 CF95 CF99 CH25 CH26 CH27 CH28 CH29 CH30 CH31 CH32 CH33 CH34 CH70 CH88 CH99 ' +
    'CM92 CM98 CM99 CR44 CR9 CR90 CT50 CW98 DE99 DH97 DH98 DH99 DL98 DN55 E77 E98 EC1P EC2P EC3P EC4P ' +
    'EC50 EH91 EH95 EH99 EN77 FY0 G58 G70 G79 G9 G90 GU95 IM99 IP98 IV99 JE1 JE4 KY99 L67 L68 L69 L70 ' +
    'L71 L72 L73 L74 L75 L80 LE21 LE41 LE55 LE87 LE94 LE95 LS88 LS98 LS99 M60 M61 M99 ME99 MK77 N1P N81 ' +
    'NE82 NE83 NE85 NE88 NE92 NE98 NE99 NG70 NG80 NG90 NR99 NW1W NW26 OL95 PE99 PL95 PR0 PR11 RH77 S49 ' +
    'S95 S96 S97 S98 S99 SA80 SA99 SE1P SL60 SL95 SN38 SN99 SO25 SO97 SR9 SS22 SS99 ST55 SW95 SY99 UB18 ' +
    'W1A WA55 WA88 WD99 WF90 WR78 WR99 WV98 YO90 YO91'
  ).split(' '),
);
