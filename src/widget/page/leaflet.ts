/**
 * Leaflet and its marker-cluster plugin, in that order: the plugin extends the global `L`
 * that Leaflet sets when it loads (the very object of Leaflet's exports, so the default
 * import below, not a namespace copy), so every page module takes Leaflet from here.
 */
import L from 'leaflet';
import 'leaflet.markercluster';

export { L };
