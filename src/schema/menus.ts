import { Type, type Static } from '@sinclair/typebox';

/** Money in minor units (pence): non-negative integers only. */
export const PenceSchema = Type.Integer({ minimum: 0 });

/** One choice inside an item option group (a size, a side, an extra). */
export const OptionChoiceSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    /** Surcharge in pence. */
    price: Type.Optional(PenceSchema),
    calories: Type.Optional(Type.Number({ minimum: 0 })),
    dietaryFlags: Type.Optional(Type.Array(Type.String())),
    isDefault: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/**
 * The interface's item-option structure (2.10), with the hidden names chosen here:
 * `kind` SINGLE (choose one) or GROUP (choose several, between minChoices and maxChoices).
 */
export const ItemOptionSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    kind: Type.Union([Type.Literal('SINGLE'), Type.Literal('GROUP')]),
    minChoices: Type.Optional(Type.Integer({ minimum: 0 })),
    maxChoices: Type.Optional(Type.Integer({ minimum: 0 })),
    required: Type.Optional(Type.Boolean()),
    choices: Type.Array(OptionChoiceSchema),
  },
  { additionalProperties: false },
);

export const MenuItemSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    /** Values such as `vegan`, `vegetarian`, `vegan_option`, `glutenFree`. */
    dietaryFlags: Type.Optional(Type.Array(Type.String())),
    ingredients: Type.Optional(Type.Array(Type.String())),
    calories: Type.Optional(Type.Number({ minimum: 0 })),
    price: Type.Optional(PenceSchema),
    options: Type.Optional(Type.Array(ItemOptionSchema)),
  },
  { additionalProperties: false },
);

export const MenuSectionSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    price: Type.Optional(PenceSchema),
    items: Type.Array(MenuItemSchema),
  },
  { additionalProperties: false },
);

export const MenuSchema = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    price: Type.Optional(PenceSchema),
    sections: Type.Array(MenuSectionSchema),
  },
  { $id: 'Menu', additionalProperties: false },
);

export const MenusResponseSchema = Type.Array(MenuSchema);

export type OptionChoice = Static<typeof OptionChoiceSchema>;
export type ItemOption = Static<typeof ItemOptionSchema>;
export type MenuItem = Static<typeof MenuItemSchema>;
export type MenuSection = Static<typeof MenuSectionSchema>;
export type Menu = Static<typeof MenuSchema>;
