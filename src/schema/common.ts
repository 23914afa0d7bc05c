import { Type, type Static } from '@sinclair/typebox';

/** Three-letter day names as the interface writes them, Monday first. */
export const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export type DayName = (typeof DAY_NAMES)[number];

export const DayNameSchema = Type.Union(DAY_NAMES.map((d) => Type.Literal(d)), { $id: 'DayName' });

/** `HH:MM`, 00:00 to 24:00 (24:00 only as a closing time: end of day). */
export const ClockTimeSchema = Type.String({ pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$' });

export const TimeSlotSchema = Type.Object(
  {
    open: ClockTimeSchema,
    close: ClockTimeSchema,
    /** A slot marked closed never matches (a day the venue is shut). */
    isClosed: Type.Boolean(),
    /** The slot ends on the following day (`close` is read as next-day local time). */
    closeNextDay: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type TimeSlot = Static<typeof TimeSlotSchema>;

export const OpeningHoursGroupSchema = Type.Object(
  {
    days: Type.Array(DayNameSchema, { minItems: 1, maxItems: 7 }),
    timeSlots: Type.Array(TimeSlotSchema),
  },
  { additionalProperties: false },
);
export type OpeningHoursGroup = Static<typeof OpeningHoursGroupSchema>;

/** A weekly opening-hours structure: groups of days sharing the same slots. */
export const WeeklyHoursSchema = Type.Array(OpeningHoursGroupSchema);
export type WeeklyHours = Static<typeof WeeklyHoursSchema>;

/**
 * The interface's point: `{type: "Point", coordinates: [lat, lon]}`. Latitude FIRST, exactly
 * as the interface shows; this is the only place the engine uses that order. GeoJSON's
 * `[lon, lat]` is converted at the import/export boundary only.
 */
export const LatLonPointSchema = Type.Object(
  {
    type: Type.Literal('Point'),
    coordinates: Type.Tuple(
      [
        Type.Number({ minimum: -90, maximum: 90, description: 'Latitude, degrees (WGS84).' }),
        Type.Number({ minimum: -180, maximum: 180, description: 'Longitude, degrees (WGS84).' }),
      ],
      {
        description:
          '[latitude, longitude]: latitude FIRST, unlike GeoJSON\'s [longitude, latitude]. Read the GeoJSON way, a London venue\'s [51.5126, -0.1391] would lie in the Indian Ocean off Somalia; venue data written in GeoJSON order is served in the wrong place, and `venue-search serve` warns that its venues "lie at sea" (docs/data-model.md).',
      },
    ),
  },
  { additionalProperties: false },
);
export type LatLonPoint = Static<typeof LatLonPointSchema>;

export const ImageSchema = Type.Object(
  { url: Type.String({ minLength: 1 }), caption: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
export type Image = Static<typeof ImageSchema>;

/** `{Lat, Lon}` with capitalised keys, as the interface's responses write a centre. */
export const CapitalLatLonSchema = Type.Object(
  { Lat: Type.Number(), Lon: Type.Number() },
  { additionalProperties: false },
);
export type CapitalLatLon = Static<typeof CapitalLatLonSchema>;
