/**
 * Overture Maps place categories to the interface's vocabulary. docs/import.md prints the
 * same tables; change both together.
 *
 * Overture names a place's kind with snake_case category words: the older
 * `categories.primary`/`alternate` (being retired in 2026) and the newer `taxonomy`
 * (`primary`, `hierarchy` from general to specific, `alternates`) and `basic_category`.
 * A word is food and drink when this table names it, or when it ends in `_restaurant`
 * (`mexican_restaurant`: a restaurant, cuisine `mexican`).
 */

/** Category words to `primaryGenre`. */
export const OVERTURE_GENRE: Readonly<Record<string, string>> = {
  restaurant: 'restaurant',
  diner: 'restaurant',
  bistro: 'restaurant',
  brasserie: 'restaurant',
  canteen: 'restaurant',
  fast_food_restaurant: 'fast_food',
  fast_food: 'fast_food',
  sandwich_shop: 'fast_food',
  hot_dog_stand: 'fast_food',
  food_truck: 'fast_food',
  food_stand: 'fast_food',
  delicatessen: 'fast_food',
  pizza_delivery_service: 'fast_food',
  casual_eatery: 'restaurant',
  steakhouse: 'restaurant',
  salad_bar: 'restaurant',
  tapas_bar: 'restaurant',
  food_court: 'food_court',
  cafe: 'coffee_shop',
  coffee_shop: 'coffee_shop',
  coffee_roastery: 'coffee_shop',
  tea_room: 'coffee_shop',
  tea_house: 'coffee_shop',
  bubble_tea: 'coffee_shop',
  smoothie_juice_bar: 'coffee_shop',
  bakery: 'bakery',
  patisserie: 'bakery',
  bagel_shop: 'bakery',
  donuts: 'bakery',
  cupcake_shop: 'bakery',
  pretzels: 'bakery',
  ice_cream_shop: 'ice_cream',
  frozen_yoghurt_shop: 'ice_cream',
  gelato: 'ice_cream',
  shaved_ice_shop: 'ice_cream',
  desserts: 'ice_cream',
  bar: 'bar',
  beer_bar: 'bar',
  cocktail_bar: 'bar',
  wine_bar: 'bar',
  sports_bar: 'bar',
  dive_bar: 'bar',
  hotel_bar: 'bar',
  lounge: 'bar',
  whiskey_bar: 'bar',
  tiki_bar: 'bar',
  piano_bar: 'bar',
  gay_bar: 'bar',
  hookah_bar: 'bar',
  brewery: 'bar',
  brewpub: 'pub',
  pub: 'pub',
  irish_pub: 'pub',
  gastropub: 'pub',
  beer_garden: 'beer_garden',
  night_club: 'nightclub',
  nightclub: 'nightclub',
  dance_club: 'nightclub',
};

/**
 * Cuisines of category words in OVERTURE_GENRE that are not `<cuisine>_restaurant` words
 * (Domino's: `pizza_delivery_service`, a fast-food business whose food is pizza; until
 * 2026-11-30 it was skipped as not food or drink, audit 67d F3).
 */
export const OVERTURE_WORD_CUISINE: Readonly<Record<string, string>> = {
  pizza_delivery_service: 'pizza',
};

/**
 * General food-and-drink words with no genre of their own (`eat_and_drink` is the root of
 * Overture's older categories, `food_and_drink` of its taxonomy). A place whose own words
 * are only these takes its kind from its first food-or-drink alternate (Royal Taste of
 * Jamaica: `eat_and_drink`, alternate `jamaican_restaurant`). Other places never do: in
 * the sample, 88 places outside food and drink name one as an alternate (a liquor store's
 * `wine_bar`, a hotel's `restaurant`, a filling station's `coffee_shop`).
 */
export const FOOD_AND_DRINK_ROOTS: ReadonlySet<string> = new Set(['eat_and_drink', 'food_and_drink', 'food']);

/** The suffix that makes any category word a restaurant; what precedes it is a cuisine. */
export const RESTAURANT_SUFFIX = '_restaurant';

/** Genres that serve alcohol by definition (flag `servesAlcohol`), as for OSM amenities. */
export const ALCOHOL_GENRES: ReadonlySet<string> = new Set(['pub', 'bar', 'beer_garden', 'nightclub']);

/** Genres that serve food by definition (flag `servesFood`), as for OSM amenities. */
export const FOOD_GENRES: ReadonlySet<string> = new Set(['restaurant', 'fast_food', 'food_court']);

/** Category words that add `servesCocktails`. */
export const COCKTAIL_WORDS: ReadonlySet<string> = new Set(['cocktail_bar', 'tiki_bar']);

/** What one category word means for us: a genre and perhaps a cuisine, or nothing. */
export interface CategoryMeaning {
  readonly genre: string;
  /** `mexican` for `mexican_restaurant`, `pizza` for `pizza_delivery_service`; absent for plain words. */
  readonly cuisine?: string;
}

/** The genre (and cuisine) of one category word, or undefined when it is not food or drink. */
export function categoryMeaning(word: string): CategoryMeaning | undefined {
  const genre = OVERTURE_GENRE[word];
  if (genre !== undefined) {
    const cuisine = OVERTURE_WORD_CUISINE[word];
    return cuisine === undefined ? { genre } : { genre, cuisine };
  }
  if (word.length > RESTAURANT_SUFFIX.length && word.endsWith(RESTAURANT_SUFFIX)) {
    return { genre: 'restaurant', cuisine: word.slice(0, -RESTAURANT_SUFFIX.length) };
  }
  return undefined;
}
