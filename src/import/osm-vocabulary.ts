/**
 * Fixed tables from OSM tag values to the interface's vocabulary. docs/import.md prints
 * the same tables; change both together.
 */

/** `amenity` to `primaryGenre`. Any other amenity is not a venue we import. */
export const AMENITY_GENRE: Readonly<Record<string, string>> = {
  pub: 'pub',
  bar: 'bar',
  restaurant: 'restaurant',
  cafe: 'coffee_shop',
  fast_food: 'fast_food',
  food_court: 'food_court',
  biergarten: 'beer_garden',
  ice_cream: 'ice_cream',
  nightclub: 'nightclub',
};

/** `shop` values that are also places to eat or drink (only when there is no venue amenity). */
export const SHOP_GENRE: Readonly<Record<string, string>> = {
  bakery: 'bakery',
  pastry: 'bakery',
};

/** Veggiekarte `icon` (standing in for amenity/shop) to an OSM amenity or shop tag. */
export const VEGGIE_ICON_TAG: Readonly<Record<string, readonly [key: string, value: string]>> = {
  restaurant: ['amenity', 'restaurant'],
  'maki_restaurant-pizza': ['amenity', 'restaurant'],
  cafe: ['amenity', 'cafe'],
  fast_food: ['amenity', 'fast_food'],
  pub: ['amenity', 'pub'],
  bar: ['amenity', 'bar'],
  ice_cream: ['amenity', 'ice_cream'],
  bakery: ['shop', 'bakery'],
};

/**
 * Veggiekarte `category` back to the OSM diet tags it was derived from (see its SOURCE.md):
 * `vegan_limited` (diet:vegan=limited) records nothing.
 */
export const VEGGIE_CATEGORY_DIET: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  vegan_only: { 'diet:vegan': 'only' },
  vegetarian_only: { 'diet:vegetarian': 'only', 'diet:vegan': 'yes' },
  vegan_friendly: { 'diet:vegan': 'yes' },
  vegan_limited: { 'diet:vegan': 'limited' },
  vegetarian_friendly: { 'diet:vegetarian': 'yes' },
};

/** `diet:<key>` (yes/only) to `catersFlags`. Other diet keys are counted, not recorded. */
export const DIET_CATERS_FLAG: Readonly<Record<string, string>> = {
  vegan: 'vegan',
  vegetarian: 'vegetarian',
  gluten_free: 'glutenFree',
  dairy_free: 'dairyFree',
  egg_free: 'eggFree',
  fish_free: 'fishFree',
  crustacean_free: 'crustaceanFree',
  mollusc_free: 'molluscFree',
  wheat_free: 'wheatFree',
};

/** Amenities that serve alcohol by definition (flag `servesAlcohol`). */
export const ALCOHOL_AMENITIES: ReadonlySet<string> = new Set(['pub', 'bar', 'biergarten', 'nightclub']);

/** Amenities that serve food by definition (flag `servesFood`). */
export const FOOD_AMENITIES: ReadonlySet<string> = new Set(['restaurant', 'fast_food', 'food_court']);
