import { createEngine } from './src/engine.js';
import { DefaultPlaceResolver } from './src/places/default-resolver.js';
const v = (id: string, name: string, lat: number, lon: number) => ({ id, name, location: { type: 'Point' as const, coordinates: [lat, lon] as [number, number] } });
const e = createEngine([
  v('jp1', 'すし善', 35.68, 139.76), v('jp2', '東京ラーメン 本店', 35.69, 139.7), v('cn', '北京酸奶 Beijing Yogurt', 40.7, -74), v('ru', 'Ресторан ПУШКИН', 55.76, 37.6),
  v('gr', 'Ταβέρνα Ο Θανάσης', 37.97, 23.72), v('de', 'Café Müller', 48.1, 11.5), v('tr', 'ÇİĞ KÖFTE', 41, 29), v('ko', '스타벅스 강남점', 37.5, 127), v('ar', 'مطعم الشام', 33.5, 36.3),
], { places: null });
for (const q of ['すし', 'すし善', '善', '東京', 'ラーメン', '本店', '北京', '酸奶', 'beijing', 'пушкин', 'ресторан пушк', 'таверна', 'ταβερνα', 'θανασης', 'cafe muller', 'MÜLLER', 'cig kofte', 'çiğ', '스타벅스', '강남', 'الشام', 'مطعم'])
  console.log(q, '->', e.find({ q }, { now: 0 }).establishments.map((x) => x.id).join(','));
const r = new DefaultPlaceResolver([], { countries: null });
for (const p of ['Suva', 'Tokyo', 'Sao Paulo', 'São Paulo', 'Zürich', 'zurich', 'Reykjavík', 'Nuku\'alofa', 'Apia', 'Москва', 'Munich', 'München', '東京', 'Beijing', 'New York', 'Kathmandu'])
  console.log(p, JSON.stringify(r.resolve(p)));
